"""Enrich a CSV of leads into a CSV of enriched leads.

    python examples/bulk_enrich.py leads.csv enriched.csv
    python examples/bulk_enrich.py                # writes a sample leads.csv of 20 leads here first

The input needs `company` and `domain` columns; `name`, `email`, `title` and
`linkedin_url` are used when present, other columns are ignored. The output has one row
per input row: its status, the input, and the enrichment flattened into columns.

Uses the real API when LEADENRICH_API_KEY (and LEADENRICH_BASE_URL) are set, and the
bundled fake server otherwise. Against the real API the sample spends about 17 credits;
`--max-credits` caps what a run may spend. Progress is then kept in
`<output>.checkpoint.jsonl`: run the same command again after a crash or Ctrl-C and the
leads already enriched are taken from it, not paid for twice. The bundled fake server
starts empty on every run, so a run on it keeps no checkpoint: there would be nothing of
it to resume from (and a checkpoint is refused by any other service or account).
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
from pathlib import Path

from leadenrich import BulkResult, LeadIn
from leadenrich.testing import connect

SAMPLE = [
    ("Ada Lovelace", "ada@acme-robotics.com", "VP Engineering", "Acme Robotics", "acme-robotics.com"),
    ("Hank Scorpio", "hank@globex.com", "CEO", "Globex", "globex.com"),
    ("Bill Lumbergh", "bill@initech.com", "Division VP", "Initech", "initech.com"),
    ("Gavin Belson", "gavin@hooli.com", "Founder", "Hooli", "hooli.com"),
    ("Richard Hendricks", "richard@piedpiper.com", "CEO", "Pied Piper", "piedpiper.com"),
    ("Miles Dyson", "miles@cyberdyne.com", "Director of R&D", "Cyberdyne Systems", "cyberdyne.com"),
    (
        "Ellen Ripley",
        "ellen@weyland-yutani.com",
        "Head of Operations",
        "Weyland-Yutani",
        "weyland-yutani.com",
    ),
    ("Willy Wonka", "willy@wonka.com", "Owner", "Wonka Industries", "wonka.com"),
    ("Michael Scott", "michael@dundermifflin.com", "Regional Manager", "Dunder Mifflin", "dundermifflin.com"),
    ("Tony Stark", "tony@stark-industries.com", "CTO", "Stark Industries", "stark-industries.com"),
    ("Bruce Wayne", "bruce@wayne-enterprises.com", "Chairman", "Wayne Enterprises", "wayne-enterprises.com"),
    ("Lucille Bluth", "lucille@bluth.com", "Chairwoman", "Bluth Company", "bluth.com"),
    ("Don Draper", "don@sterlingcooper.com", "Creative Director", "Sterling Cooper", "sterlingcooper.com"),
    ("Leslie Knope", "leslie@pawnee.gov", "Deputy Director", "Pawnee Parks", "pawnee.gov"),
    ("Jack Donaghy", "jack@kabletown.com", "VP East Coast", "Kabletown", "kabletown.com"),
    ("Sheldon Plankton", "plankton@chumbucket.com", "Owner", "Chum Bucket", "chumbucket.com"),
    ("Gordon Gekko", "gordon@gekko.com", "Managing Partner", "Gekko & Co", "gekko.com"),
    # No domain: rejected before anything is sent, and reported as failed.
    ("Art Vandelay", "art@vandelay.com", "Importer", "Vandelay Industries", ""),
    # A .invalid domain cannot be enriched: the service answers with an error.
    ("Dee Funct", "dee@defunct.invalid", "CFO", "Defunct Dynamics", "defunct.invalid"),
    # The same contact twice, as CRM exports have it: the service returns the stored
    # record, marked deduped, without a charge.
    ("A. Lovelace", "ada@acme-robotics.com", "VP of Engineering", "Acme Robotics", "acme-robotics.com"),
]


def sample_text() -> str:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(["name", "email", "title", "company", "domain"])
    writer.writerows(SAMPLE)
    return buffer.getvalue()


def sample_here() -> Path:
    """`leads.csv` in the current directory, written with the sample unless already there."""
    path = Path("leads.csv")
    if not path.exists():
        path.write_text(sample_text(), encoding="utf-8", newline="")
        print(f"no input given: wrote a sample of {len(SAMPLE)} leads to {path}")
        print("  (its last three rows show a failure before sending, a failure of the service, and a dedupe)")
    elif path.read_bytes() == sample_text().encode():
        print(f"no input given: using the sample {path} written by an earlier run")
    else:
        # Someone's own leads: enriching them (and spending credits) must be asked for by name.
        raise SystemExit(
            f"{path} here is not the sample: to enrich it, run python {sys.argv[0]} {path} enriched.csv"
        )
    return path


def read_leads(path: Path) -> list[dict[str, str]]:
    fields = set(LeadIn.model_fields)
    with path.open(newline="", encoding="utf-8-sig") as handle:
        # Only LeadIn's columns, and no empty cells: an empty cell means "unknown", and
        # LeadIn rejects fields it does not know.
        return [
            {key: value.strip() for key, value in row.items() if key in fields and value and value.strip()}
            for row in csv.DictReader(handle)
        ]


def write_result(result: BulkResult, path: Path) -> None:
    records = result.to_records()
    # Failed rows have no enrichment columns: the header is every column seen, in order.
    columns: dict[str, None] = {}
    for record in records:
        columns.update(dict.fromkeys(record))
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(columns))
        writer.writeheader()
        writer.writerows(records)


def report(result: BulkResult) -> None:
    print(f"  succeeded: {result.succeeded} ({result.deduped} deduped, {result.resumed} from an earlier run)")
    print(f"  failed:    {result.failed}")
    print(f"  skipped:   {result.skipped}")
    print(f"  credits:   {result.credits_spent}")
    for outcome in result.errors:
        given = outcome.input
        # An invalid row is kept as it was given (a mapping); a valid one became a LeadIn.
        company = given.company if isinstance(given, LeadIn) else given.get("company", "?")
        error = f"{type(outcome.error).__name__}: {outcome.error}"
        print(f"  row {outcome.index + 1} ({company}) {outcome.status}: {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description="Enrich a CSV of leads into a CSV of enriched leads.")
    parser.add_argument("input", nargs="?", type=Path, help="CSV with company and domain columns")
    parser.add_argument("output", nargs="?", type=Path, help="where to write the enriched CSV")
    parser.add_argument("--max-credits", type=int, default=None, help="spend at most this many credits")
    args = parser.parse_args()

    source: Path = args.input or sample_here()
    target: Path = args.output or source.with_name(f"{source.stem}-enriched.csv")
    real = bool(os.environ.get("LEADENRICH_API_KEY"))
    checkpoint = target.with_name(target.name + ".checkpoint.jsonl") if real else None

    leads = read_leads(source)
    with connect() as client:
        result = client.leads.enrich_many(leads, checkpoint=checkpoint, max_credits=args.max_credits)
    write_result(result, target)
    print(f"{len(result)} leads from {source}, one row each in {target}:")
    report(result)
    if checkpoint is not None:
        print(f"to resume from {checkpoint}, run: python {sys.argv[0]} {source} {target}")
    else:
        print("no checkpoint kept: the bundled fake server starts empty on every run")


if __name__ == "__main__":
    main()
