"""The JSONL checkpoint of a bulk run: what started, what finished, and how.

Each line is appended and flushed as it happens, so a crash or Ctrl-C loses nothing that
was paid for. A lead that started but never finished may have been charged: on resume it
is looked up among the account's stored leads before it is sent again.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from .._errors import LeadEnrichError
from .._models import LeadIn, LeadOut

__all__ = ["Checkpoint", "Resume", "fingerprint"]


def fingerprint(lead: LeadIn) -> str:
    """A stable key for a lead's content (the same lead twice gets the same key)."""
    # Only LeadIn's own fields: the server's echo of a lead may carry extra ones.
    fields = lead.model_dump(include=set(LeadIn.model_fields), exclude_none=True)
    canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:20]


@dataclass
class Resume:
    """What an earlier run left: leads done, and leads that may have been charged."""

    done: dict[str, LeadOut] = field(default_factory=dict[str, LeadOut])
    """Keys of leads enriched earlier, with their record."""
    uncertain: dict[str, datetime] = field(default_factory=dict[str, datetime])
    """Keys of leads that started (at that time) but whose answer was lost."""
    lost: dict[str, datetime] = field(default_factory=dict[str, datetime])
    """When an uncertain lead's lost answer was written down. Its request may have gone out
    well after "started" (a slot, pacing and 429s come first), never after that."""


class Checkpoint:
    """Appends one JSON line per event to `path`, flushed and synced to disk."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._file: TextIO | None = None

    def load(self) -> Resume:
        """Read what an earlier run wrote; a torn last line (killed mid-write) is dropped."""
        resume = Resume()
        try:
            if not self.path.exists():
                return resume
            raw = self.path.read_bytes()
            complete = raw[: raw.rfind(b"\n") + 1]
            if len(complete) != len(raw):
                # Cut the torn tail so the next append starts on a line of its own.
                with self.path.open("r+b") as handle:
                    handle.truncate(len(complete))
        except OSError as exc:
            raise LeadEnrichError(f"checkpoint {self.path} cannot be read: {exc}") from None
        for number, line in enumerate(complete.decode("utf-8", errors="replace").splitlines(), 1):
            if line.strip():
                self._apply(line, number, resume)
        return resume

    def _apply(self, line: str, number: int, resume: Resume) -> None:
        try:
            entry: Any = json.loads(line)
            key = str(entry["key"])
            event = entry["event"]
        except (ValueError, KeyError, TypeError):
            raise LeadEnrichError(
                f"checkpoint {self.path} line {number} is not a checkpoint entry; "
                "pass another path or remove the file"
            ) from None
        if event == "started":
            resume.uncertain[key] = datetime.fromisoformat(entry["at"])
        elif event == "finished":
            if entry.get("lead") is not None:
                try:
                    resume.done[key] = LeadOut.model_validate(entry["lead"])
                except ValidationError:
                    return
                resume.uncertain.pop(key, None)
            elif not entry.get("maybe_charged"):
                resume.uncertain.pop(key, None)
            else:
                resume.lost[key] = datetime.fromisoformat(entry["at"])

    def started(self, key: str, index: int) -> None:
        self._write({"event": "started", "key": key, "index": index, "at": _now()})

    def finished(
        self,
        key: str,
        index: int,
        status: str,
        lead: LeadOut | None,
        error: LeadEnrichError | None,
        maybe_charged: bool,
    ) -> None:
        entry: dict[str, Any] = {
            "event": "finished",
            "key": key,
            "index": index,
            "status": status,
            "at": _now(),
        }
        if lead is not None:
            entry["lead"] = lead.model_dump(mode="json")
        if error is not None:
            entry["error"] = {"type": type(error).__name__, "message": str(error)}
            entry["maybe_charged"] = maybe_charged
        self._write(entry)

    def _write(self, entry: dict[str, Any]) -> None:
        line = json.dumps(entry, separators=(",", ":")) + "\n"
        with self._lock:
            try:
                if self._file is None:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    self._file = self.path.open("a", encoding="utf-8")
                self._file.write(line)
                self._file.flush()
                os.fsync(self._file.fileno())
            except OSError as exc:
                raise LeadEnrichError(f"checkpoint {self.path} cannot be written: {exc}") from None

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()
