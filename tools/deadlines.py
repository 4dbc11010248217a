"""Deadlines and the late policy of the course, set in one place: `deadlines.toml` beside the Makefile.

    [policy]
    timezone = "Europe/Berlin"   # the zone of the deadlines, and of the times in the platform's zip
    penalty_per_day = 0.1        # share of the score lost for each day late, a started day counting whole
    zero_after_days = 7          # later than this many days, the score is 0

    [deadlines]
    "02-perceptron" = "2026-10-12 23:59"

`make export` applies it: a submission's time (the platform's, recorded by `make collect`, or the
exchange's) after its lecture's deadline costs penalty_per_day of its score per started day, all of it
after zero_after_days; grades.csv shows the score before, the penalty and the score after, and the summary
names every late submission. A lecture without a deadline has no late penalty (the platform's own late
marker is still reported).
"""

from __future__ import annotations

import datetime as dt
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

FILE = "deadlines.toml"
DAY = 24 * 3600


@dataclass
class Policy:
    timezone: dt.tzinfo = dt.timezone.utc
    penalty_per_day: float = 0.0
    zero_after_days: float = math.inf
    deadlines: dict[str, dt.datetime] = field(default_factory=dict)  # lecture -> aware deadline

    def seconds_late(self, lecture: str, submitted: dt.datetime | None) -> float:
        deadline = self.deadlines.get(lecture)
        if deadline is None or submitted is None:
            return 0.0
        return max(0.0, (submitted - deadline).total_seconds())

    def penalty_share(self, seconds_late: float) -> float:
        """The share of the score a submission this late loses."""
        if seconds_late <= 0:
            return 0.0
        if seconds_late > self.zero_after_days * DAY:
            return 1.0
        return min(1.0, self.penalty_per_day * math.ceil(seconds_late / DAY))

    def describe(self, lecture: str) -> str:
        """The part of the policy a lecture's grades depend on, in words."""
        deadline = self.deadlines.get(lecture)
        if deadline is None:
            return "no deadline"
        zero = "" if math.isinf(self.zero_after_days) else f", 0 after {self.zero_after_days:g} days"
        return f"deadline {deadline:%Y-%m-%d %H:%M %Z}, {self.penalty_per_day:.0%} per started day late{zero}"


def parse_time(text: str, zone: dt.tzinfo) -> dt.datetime:
    """A time as the course writes them ("2026-10-12 23:59", seconds, fractions and a zone optional;
    "... UTC" as the exchange writes it); without a zone it is in ``zone``."""
    text = text.strip()
    if text.endswith(" UTC"):
        text, zone = text[:-4], dt.timezone.utc
    when = dt.datetime.fromisoformat(text)
    return when if when.tzinfo else when.replace(tzinfo=zone)


def load(root: Path) -> Policy:
    """The policy of the course at ``root`` (no file: no deadline, no penalty); a mistake in the file
    is named, with the key it is in."""
    path = root / FILE
    if not path.is_file():
        return Policy()
    try:
        data = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise SystemExit(f"{FILE}: not valid TOML ({err})")
    unknown = set(data) - {"policy", "deadlines"}
    if unknown:
        raise SystemExit(f"{FILE}: unknown section(s) {', '.join(sorted(unknown))}; it has [policy] and [deadlines]")
    policy, settings = Policy(), data.get("policy", {})
    unknown = set(settings) - {"timezone", "penalty_per_day", "zero_after_days"}
    if unknown:
        raise SystemExit(f"{FILE}: [policy] has unknown key(s) {', '.join(sorted(unknown))}; "
                         "it knows timezone, penalty_per_day, zero_after_days")
    if "timezone" in settings:
        try:
            policy.timezone = ZoneInfo(str(settings["timezone"]))
        except (ZoneInfoNotFoundError, ValueError):
            raise SystemExit(f"{FILE}: [policy] timezone = {settings['timezone']!r} is not a time zone "
                             "(write one like \"Europe/Berlin\" or \"UTC\")")
    share = settings.get("penalty_per_day", 0.0)
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
        raise SystemExit(f"{FILE}: [policy] penalty_per_day = {share!r} must be a share of the score "
                         "between 0 and 1 (0.1 takes 10% a day)")
    policy.penalty_per_day = float(share)
    days = settings.get("zero_after_days", math.inf)
    if isinstance(days, bool) or not isinstance(days, (int, float)) or days < 0:
        raise SystemExit(f"{FILE}: [policy] zero_after_days = {days!r} must be a number of days, 0 or more")
    policy.zero_after_days = float(days)
    for lecture, when in data.get("deadlines", {}).items():
        if isinstance(when, dt.datetime):
            deadline = when if when.tzinfo else when.replace(tzinfo=policy.timezone)
        else:
            try:
                deadline = parse_time(str(when), policy.timezone)
            except ValueError:
                raise SystemExit(f"{FILE}: [deadlines] {lecture} = {when!r} is not a time like \"2026-10-12 23:59\"")
        policy.deadlines[lecture] = deadline
    return policy
