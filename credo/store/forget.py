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
from credo.schema.commands import build, fields_of
from credo.schema.forget import ForgetJob, ForgetResult, ResidueReport
from credo.services.forget import forget as forget_service
from credo.services.forget import scope as forget_scope
from credo.services.core.context import Context
from credo.services.forget.rules import Probe
from credo.services.forget.verify import verify_forgotten as verify_service


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
        return forget_service.forget(self._ctx, probes=self._forget_probes, **fields_of(cmd))

    def purge(self, target_id: str) -> ResidueReport:
        """forgotten -> deleted: remove the tombstoned nodes (refused unless forgotten first)."""
        cmd = build(cf.Purge, target_id=target_id)
        return forget_service.purge(self._ctx, probes=self._forget_probes, **fields_of(cmd))

    def verify_forgotten(self, target_id: str) -> ResidueReport:
        """Every place still holding the content of a forgotten id; `.complete` only when there is none."""
        cmd = build(cf.VerifyForgotten, target_id=target_id)
        return verify_service(self._ctx, probes=self._forget_probes, **fields_of(cmd))

    def forget_subject(self, entity: str, *, reason: str, actor: str, batch_size: int = 500,
                       progress: Callable[[ForgetJob], None] | None = None) -> ForgetJob:
        """Forget an entity (name or id) and every fact naming it, in batches, as a resumable job."""
        cmd = build(cf.ForgetSubject, entity=entity, reason=reason, actor=actor, batch_size=batch_size)
        by_id = cmd.entity.startswith("e_")
        done = forget_scope.forget_subject(self._ctx, entity_id=cmd.entity if by_id else None,
                                           entity=None if by_id else cmd.entity, reason=cmd.reason, actor=cmd.actor,
                                           batch_size=cmd.batch_size, probes=self._forget_probes,
                                           progress=progress or (lambda _j: None))
        return done.job

    def forget_tenant(self, *, reason: str, actor: str, batch_size: int = 500,
                      progress: Callable[[ForgetJob], None] | None = None) -> ForgetJob:
        """Forget everything this tenant holds, in batches; resumes a crashed run of the same job."""
        cmd = build(cf.ForgetTenant, reason=reason, actor=actor, batch_size=batch_size)
        return forget_scope.forget_tenant(self._ctx, progress=progress or (lambda _j: None), **fields_of(cmd))

    def forget_resume(self, *, progress: Callable[[ForgetJob], None] | None = None) -> list[ForgetJob]:
        """Finish the forget jobs a crash left running (each from its persisted cursor)."""
        build(cf.ForgetResume)
        return forget_scope.resume(self._ctx, progress=progress or (lambda _j: None))


HANDLERS: dict[str, Callable[..., Any]] = {}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
