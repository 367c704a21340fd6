"""Find work emails and mobile numbers: a hit and a miss of each, and a rejected call.

An email search answers at once: `found` (one enrichment credit) or `not_found` (free).
A mobile lookup is asynchronous: `find_and_wait` starts it and polls until it is
`settled` with a number (one mobile credit) or `refunded` without one (free).

Uses the real API when LEADENRICH_API_KEY (and LEADENRICH_BASE_URL) are set, and the
bundled fake server otherwise. The misses below use the fake server's documented
triggers (last name `Nobody` finds no email, `Landline` no mobile number); the real
service decides for itself. From a clone of the repository (the examples are not in the
wheel):

    pip install -e ".[fake]"
    python examples/email_and_mobile.py
"""

from __future__ import annotations

from leadenrich import EmailFindOut, InvalidRequestError, MobileFindOut
from leadenrich.testing import connect

PROFILE = "https://www.linkedin.com/in/ada-lovelace"


def show_email(who: str, result: EmailFindOut) -> None:
    if result.found:
        # Status and score are provider-dependent and may be missing.
        score = "no score" if result.email_score is None else f"score {result.email_score:g}"
        print(f"email of {who}: found {result.email} ({result.email_status or 'no status'}, {score})")
    else:
        print(f"email of {who}: {result.state}, no credit charged")


def show_mobile(who: str, lookup: MobileFindOut) -> None:
    if lookup.state == "settled":
        print(f"mobile of {who}: settled {lookup.mobile} (lookup {lookup.lookup_id})")
    else:
        print(f"mobile of {who}: {lookup.state}, no number and no credit charged")


def main() -> None:
    with connect() as client:
        # Names plus a company name or domain, or a profile URL alone.
        hit = client.email.find(first_name="Ada", last_name="Lovelace", domain="acme-robotics.com")
        show_email("Ada Lovelace", hit)
        miss = client.email.find(first_name="Nemo", last_name="Nobody", company_name="Acme Robotics")
        show_email("Nemo Nobody", miss)

        settled = client.mobile.find_and_wait(linkedin_url=PROFILE)
        show_mobile(PROFILE, settled)
        refunded = client.mobile.find_and_wait(
            first_name="Pat", last_name="Landline", domain="acme-robotics.com"
        )
        show_mobile("Pat Landline", refunded)

        try:
            # A profile URL must come alone: the SDK refuses this before sending anything.
            client.email.find(linkedin_url=PROFILE, domain="acme-robotics.com")
        except InvalidRequestError as exc:
            print(f"not sent: {exc}")

        usage = client.usage()
        print(f"enrichment credits used this month (email hits included): {usage.monthly_leads.used}")
        print(f"mobile credits used: {usage.mobile_credits.used}, left: {usage.mobile_credits.balance}")


if __name__ == "__main__":
    main()
