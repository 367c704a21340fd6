"""The words the fake's enrichment records, emails and numbers are drawn from (see _content.py)."""

from __future__ import annotations

__all__ = [
    "CITIES",
    "CLOUD",
    "COMMITTEE",
    "CONTENT",
    "CRM",
    "EMAIL_DOMAINS",
    "EVENTS",
    "FIRST",
    "INDUSTRIES",
    "INFRA",
    "LAST",
    "NEWS",
    "OTHER",
    "PRODUCT_WORDS",
    "ROLES_HIRED",
    "ROUNDS",
    "SECURITY",
    "SIZES",
    "TIMING",
    "TOPICS",
    "US_AREA_CODES",
]

SIZES = ("1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5001-10000", "10001+")
INDUSTRIES: dict[str, tuple[str, ...]] = {
    "Computer Software": ("slow release cycles", "rising cloud spend", "security review backlog"),
    "Financial Services": ("manual compliance reporting", "legacy core systems", "fraud losses"),
    "Healthcare": ("fragmented patient data", "HIPAA audit effort", "clinician burnout"),
    "Logistics": ("poor shipment visibility", "spreadsheet-driven planning", "carrier cost swings"),
    "Retail": ("cart abandonment", "inventory inaccuracy", "disconnected channels"),
    "Manufacturing": ("unplanned downtime", "supplier delays", "quality escapes"),
    "Marketing Services": ("attribution gaps", "campaign reporting toil", "client churn"),
    "Education Technology": ("low course completion", "seasonal traffic spikes", "data privacy rules"),
}
CLOUD = ("AWS", "Google Cloud", "Microsoft Azure", "Cloudflare", "DigitalOcean", "Vercel")
CRM = ("Salesforce", "HubSpot", "Pipedrive", "Microsoft Dynamics 365", "Zoho CRM", "Close")
SECURITY = ("Okta", "CrowdStrike", "Snyk", "1Password", "Wiz", "Auth0", "Vanta")
INFRA = ("Kubernetes", "Terraform", "Docker", "Datadog", "PostgreSQL", "Kafka", "GitHub Actions")
OTHER = ("Slack", "Notion", "Jira", "Segment", "Stripe", "Zendesk", "Looker", "Figma")
PRODUCT_WORDS = ("Cloud", "Insights", "Platform", "Connect", "Analytics", "Flow", "Hub", "Pay")
ROLES_HIRED = (
    "Site Reliability Engineers",
    "Account Executives",
    "a VP of Sales",
    "Data Engineers",
    "a Head of Security",
    "Customer Success Managers",
    "Product Designers",
)
NEWS = (
    "raised a Series {round} round",
    "opened an office in {city}",
    "launched {product}",
    "announced a partnership with {partner}",
    "was named a leader in its category",
    "appointed a new Chief Revenue Officer",
    "expanded into {city}",
)
ROUNDS = ("A", "B", "C", "D")
CITIES = ("London", "Austin", "Berlin", "Singapore", "Toronto", "Sydney", "Denver", "Paris")
CONTENT = (
    "a whitepaper on {topic}",
    "a webinar about {topic}",
    "a customer story on {topic}",
    "an engineering blog post on {topic}",
    "a report on {topic}",
)
TOPICS = (
    "cloud cost control",
    "zero-trust security",
    "data governance",
    "AI in operations",
    "revenue operations",
    "platform engineering",
)
EVENTS = (
    "AWS re:Invent",
    "Dreamforce",
    "SaaStr Annual",
    "KubeCon",
    "Web Summit",
    "RSA Conference",
    "Gartner Symposium",
    "HubSpot INBOUND",
)
FIRST = (
    "Maya",
    "Daniel",
    "Priya",
    "Lucas",
    "Sofia",
    "Ethan",
    "Amara",
    "Jonas",
    "Elena",
    "Omar",
    "Grace",
    "Mateo",
    "Hannah",
    "Kenji",
    "Chloe",
    "Samuel",
)
LAST = (
    "Chen",
    "Okafor",
    "Schmidt",
    "Patel",
    "Garcia",
    "Johansson",
    "Rossi",
    "Kim",
    "Novak",
    "Silva",
    "Dubois",
    "Murphy",
    "Haddad",
    "Tanaka",
    "Walsh",
    "Kowalski",
)
COMMITTEE = (
    ("Chief Financial Officer", "economic buyer"),
    ("VP of Engineering", "technical evaluator"),
    ("Head of Revenue Operations", "champion"),
    ("Chief Information Security Officer", "blocker"),
    ("Director of IT", "technical evaluator"),
    ("Chief Operating Officer", "economic buyer"),
)
TIMING = (
    "Reach out this week: the hiring push suggests budget is open.",
    "Engage within 30 days, before next quarter's planning closes.",
    "Nurture for now and re-engage after their next funding news.",
    "Time outreach to their upcoming event appearance.",
)
EMAIL_DOMAINS = ("northwind.io", "contoso.com", "globex.com", "initech.com", "umbrella.co", "hooli.com")
US_AREA_CODES = ("415", "212", "646", "312", "617", "512", "206", "303", "404", "305")
