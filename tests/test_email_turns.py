"""One lead per email at the service at a time (leadenrich/_bulk/emails.py): the rule the
bulk plan follows so that a second lead of an email is deduped, free, not charged too."""

from __future__ import annotations

from leadenrich._bulk.emails import EmailTurns
from leadenrich._bulk.inputs import Item, read_items


def _items(*emails: str | None) -> list[Item]:
    rows = [
        {"company": f"Co{i}", "domain": f"co{i}.com", **({"email": email} if email else {})}
        for i, email in enumerate(emails)
    ]
    return read_items(rows)


def test_a_lead_at_the_service_holds_its_email_until_its_request_is_over() -> None:
    a, b, other = _items("p@x.com", "P@X.com ", "q@x.com")
    turns = EmailTurns()
    turns.hold(a)
    assert turns.free(a)
    assert not turns.free(b)  # the same email, compared without case or spaces
    assert turns.free(other)
    turns.release(a)
    assert turns.free(b)


def test_a_lead_left_maybe_charged_keeps_its_email_for_the_rest_of_the_run() -> None:
    a, b = _items("p@x.com", "p@x.com")
    turns = EmailTurns()
    turns.hold(a)
    turns.keep(a)
    turns.release(a)
    assert turns.kept(b)
    assert not turns.free(b)
    assert not turns.kept(a)  # it blocks the others, not itself
    assert turns.changed


def test_two_unanswered_leads_of_one_email_each_keep_it_when_left_maybe_charged() -> None:
    # A checkpoint may hold two leads of one email in flight (1.1 sent them at once): the
    # first holds the email, and when it is left maybe charged it keeps it, though the
    # second held it too and ends first.
    a, b, c = _items("p@x.com", "p@x.com", "p@x.com")
    turns = EmailTurns()
    turns.hold(a)
    turns.hold(b)
    turns.keep(a)
    turns.release(b)
    assert turns.kept(c)
    assert not turns.free(c)


def test_leads_without_an_email_never_wait() -> None:
    a, b = _items(None, None)
    turns = EmailTurns()
    turns.hold(a)
    turns.keep(a)
    assert turns.free(b)
    assert not turns.kept(b)


def test_an_email_held_by_two_leads_is_free_once_both_are_over() -> None:
    # An earlier run's two unanswered leads of one email, both parked by the rerun: the
    # first one settled, the second may still be at the service.
    first, second, third = _items("p@x.com", "P@X.COM", "p@x.com")
    turns = EmailTurns()
    turns.hold(first)
    turns.hold(second)
    turns.release(first)
    assert not turns.free(third)
    assert turns.free(second)
    turns.release(second)
    assert turns.free(third)
