"""`write_policy_versions`: the tenant's write policy versions, newest first, ending with DESIGN §9's defaults — each
with who set it (the principal of the write that stored it, never a body's word), its known interval, the plan it
gives each kind and what it changed from the version before it. An operator's answer to "since when do we write
semantic memory silently, and who decided it"; `write_policy(known_at=...)` reads any one of them in force."""

from __future__ import annotations

from typing import Any

from credo.graph.core.db import Tx
from credo.graph.policy import policy as policy_repo
from credo.schema import commands_policy as c
from credo.schema.errors import InvalidInput
from credo.schema.policy import (
    DEFAULT_POLICY_ID, DEFAULT_VERSION, WritePolicy, WritePolicyEntry, WritePolicyVersion, WritePolicyVersions,
)
from credo.services.core.context import Context
from credo.services.policy import rules

DEFAULT_LIMIT = 100


def _entry(version: WritePolicyVersion, set_by: str | None, before: WritePolicy) -> WritePolicyEntry:
    return WritePolicyEntry(**dict(version), set_by=set_by, plans=rules.plans(version),
                            changes=rules.changes(before, version.policy))


def write_policy_versions(ctx: Context, cmd: c.WritePolicyVersionsQuery) -> WritePolicyVersions:
    """At most `limit` (default 100) versions of the tenant's policy, newest first, after the version `after`; the
    defaults close the list (known until the first version, or still in force when none was set). An `after` that
    names no version of this tenant is refused naming the field."""
    size = cmd.limit or DEFAULT_LIMIT

    def work(tx: Tx) -> tuple[dict[str, Any] | None, list[dict[str, Any]] | None]:
        anchor = None if cmd.after is None else policy_repo.version(tx, ctx.tenant, cmd.after)
        if cmd.after is not None and anchor is None:
            return None, None
        return anchor, policy_repo.versions(tx, ctx.tenant, after=anchor, limit=size + 1)

    if cmd.after == DEFAULT_POLICY_ID:  # the defaults close the list: nothing follows them
        return WritePolicyVersions(items=[])
    anchor, rows = ctx.read(work)
    if rows is None:
        raise InvalidInput("after", f"names no version of this tenant's write policy ({cmd.after!r}): pass the "
                                    "`next_after` of a page, or a policy id this listing showed")
    stored = [policy_repo.version_from_row(r) for r in rows]
    # the row after the page (asked for with it) is the version its last one changed; past the oldest, the defaults
    items = [_entry(v, rows[i].get("set_by"), stored[i + 1].policy if i + 1 < len(stored) else WritePolicy())
             for i, v in enumerate(stored[:size])]
    if len(stored) > size or len(items) == size:
        return WritePolicyVersions(items=items, next_after=items[-1].policy_id)
    oldest = items[-1] if items else (None if anchor is None else policy_repo.version_from_row(anchor))
    default = DEFAULT_VERSION.model_copy(update={"known_to": None if oldest is None else oldest.known_from})
    return WritePolicyVersions(items=[*items, _entry(default, None, WritePolicy())])
