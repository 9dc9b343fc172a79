"""Store methods for forgetting (issue 12 items 2-3, DESIGN.md §7): forget, purge, verify_forgotten, and the
scope-wide jobs forget_subject / forget_tenant / forget_resume.

The content a forget removes is captured first (the probe) and held until purge, in this handle's memory
(`_forget_probes`) and in a :ForgetProbe node stored with the forget, so verify_forgotten from any handle can still
search the full-text and vector indexes with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from credo.schema import commands_forget as cf
from credo.schema.commands import build
from credo.schema.forget import ForgetJob, ForgetResult, ResidueReport
from credo.services.forget import forget as forget_service
from credo.services.forget import scope as forget_scope
from credo.services.core.context import Context
from credo.services.forget.rules import Probe
from credo.services.forget import verify as verify_service


class ForgetMixin:
    """Forgetting half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    @property
    def _forget_probes(self) -> dict[str, Probe]:
        probes = self.__dict__.get("_probes")
        if probes is None:
            probes = self.__dict__["_probes"] = {}
        return probes

    def forget(self, target_id: str, *, reason: str, actor: str) -> ForgetResult:
        """Remove the content of a fact (every version), a source, an entity (and every fact naming it) or a
        summary from every place; a tombstone ("forgotten on T by A for R") stays until purge."""
        cmd = build(cf.Forget, target_id=target_id, reason=reason, actor=actor)
        return forget_service.forget(self._ctx, cmd, probes=self._forget_probes)

    def purge(self, target_id: str) -> ResidueReport:
        """forgotten -> deleted: remove the tombstoned nodes (refused unless forgotten first)."""
        return forget_service.purge(self._ctx, build(cf.Purge, target_id=target_id), probes=self._forget_probes)

    def verify_forgotten(self, target_id: str) -> ResidueReport:
        """Every place still holding the content of a forgotten id; `.complete` only when there is none."""
        cmd = build(cf.VerifyForgotten, target_id=target_id)
        return verify_service.verify_forgotten(self._ctx, cmd, probes=self._forget_probes)

    def forget_subject(self, entity: str, *, reason: str, actor: str, batch_size: int = 500,
                       progress: Callable[[ForgetJob], None] | None = None) -> ForgetJob:
        """Forget an entity (name or id) and every fact naming it, in batches, as a resumable job."""
        cmd = build(cf.ForgetSubject, entity=entity, reason=reason, actor=actor, batch_size=batch_size)
        return forget_scope.forget_subject(self._ctx, cmd, probes=self._forget_probes,
                                           progress=progress or (lambda _j: None))

    def forget_tenant(self, *, reason: str, actor: str, batch_size: int = 500,
                      progress: Callable[[ForgetJob], None] | None = None) -> ForgetJob:
        """Forget everything this tenant holds, in batches; resumes a crashed run of the same job."""
        cmd = build(cf.ForgetTenant, reason=reason, actor=actor, batch_size=batch_size)
        return forget_scope.forget_tenant(self._ctx, cmd, progress=progress or (lambda _j: None))

    def forget_resume(self, *, progress: Callable[[ForgetJob], None] | None = None) -> list[ForgetJob]:
        """Finish the forget jobs a crash left running (each from its persisted cursor)."""
        return forget_scope.resume(self._ctx, build(cf.ForgetResume), progress=progress or (lambda _j: None))


HANDLERS: dict[str, Callable[..., Any]] = {
    "forget": forget_service.forget, "purge": forget_service.purge, "verify_forgotten": verify_service.verify_forgotten,
    "forget_subject": forget_scope.forget_subject, "forget_tenant": forget_scope.forget_tenant,
    "forget_resume": forget_scope.resume,
}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`); a
handler called without the handle's `probes` starts from none (as a surface's per-request handle always did)."""
