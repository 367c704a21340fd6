"""The points the spec leaves open, one Literal each: every reading the real service may follow.

Each is a setting of FakeSettings whose first value is the 1.0.0 fake's behaviour
(docs/testing.md says what each value means); the contract tests run the SDK against
every value.
"""

from __future__ import annotations

from typing import Any, Literal

__all__ = [
    "OPEN_POINTS",
    "DedupeEmails",
    "DeleteBody",
    "FailedJobCallback",
    "HealthBody",
    "JobAdmission",
    "ListLimitBounds",
    "ListOrder",
    "ListShape",
    "ReEnrichCharge",
    "SameEmailInFlight",
    "ServiceClock",
    "SyncFailure",
    "Timestamps",
    "UnknownFields",
    "UnknownMode",
]

JobAdmission = Literal["queue", "upstream_full"]
ListOrder = Literal["newest_first", "oldest_first"]
ListShape = Literal["items", "bare", "leads", "data", "results"]
ListLimitBounds = Literal["reject", "clamp"]
SyncFailure = Literal["502_json", "500_text", "503_json"]
HealthBody = Literal["status_version", "status", "text", "empty"]
DeleteBody = Literal["id_deleted", "lead", "message", "empty"]
UnknownFields = Literal["reject", "ignore"]
SameEmailInFlight = Literal["charge_both", "dedupe"]
ReEnrichCharge = Literal["charged", "free"]
FailedJobCallback = Literal["posted", "not_posted"]
UnknownMode = Literal["reject", "async", "sync"]
DedupeEmails = Literal["ignore_case", "exact"]
ServiceClock = Literal["in_step", "behind", "ahead"]
Timestamps = Literal["utc", "local_without_offset"]
OPEN_POINTS: dict[str, Any] = {
    "job_admission": JobAdmission,
    "list_order": ListOrder,
    "list_shape": ListShape,
    "list_limit_bounds": ListLimitBounds,
    "sync_failure": SyncFailure,
    "health_body": HealthBody,
    "delete_body": DeleteBody,
    "unknown_fields": UnknownFields,
    "same_email_in_flight": SameEmailInFlight,
    "re_enrich_charge": ReEnrichCharge,
    "failed_job_callback": FailedJobCallback,
    "unknown_mode": UnknownMode,
    "dedupe_emails": DedupeEmails,
    "service_clock": ServiceClock,
    "timestamps": Timestamps,
}
