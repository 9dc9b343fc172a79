"""Preference validation's entry points (DESIGN §12): report an outcome of acting on a preference, read its
posterior, and turn the tenant flag on or off.

Off by default: until an admin sets the tenant flag `preference_validation` on, `preference_outcome` and
`preference` are refused (ConfigError naming the flag) and write nothing; no other operation reads anything of this
capability, so a tenant that leaves it off reads and writes exactly as before. On, every counted outcome is a new
posterior version (the previous one closed at the write's known time), so `preference(known_at=...)` reads an
earlier posterior; an `unknown` outcome writes only its ledger event.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.graph.core import ledger
from credo.graph.core import tenant_flags as flag_repo
from credo.graph.core import versions as fact_repo
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.graph.preferences import posterior as posterior_repo
from credo.schema import commands_preferences as c
from credo.schema.errors import ConfigError, InvalidInput, NotFound
from credo.schema.facts import Fact
from credo.schema.preferences import TENANT_FLAGS, FlagSetting, Preference, TenantFlagState
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write
from credo.services.preferences import drift, rules

FLAG = "preference_validation"


def set_tenant_flag(ctx: Context, cmd: c.SetTenantFlag) -> FlagSetting:
    """Turn a tenant flag on or off from now on (one ledger event); earlier known times keep their setting."""

    def work(w: Write) -> FlagSetting:
        flag_repo.set_flag(w.tx, ctx.tenant, cmd.flag, cmd.enabled, w.known)
        ledger.audit(w.tx, ctx.tenant, w.known, [("set_tenant_flag", ctx.tenant, {"flag": cmd.flag,
                                                                                   "enabled": cmd.enabled})])
        return FlagSetting(tenant=ctx.tenant, flag=cmd.flag, enabled=cmd.enabled, known_from=w.known)

    return ctx.write(work)


def tenant_flags(ctx: Context, cmd: c.TenantFlagsQuery) -> list[TenantFlagState]:
    """Every tenant flag as believed now or at `known_at`: on or off, and since when (None: never set, so off)."""
    known = ctx.now() if cmd.known_at is None else ctx.known_point(cmd.known_at)

    def read(tx: Tx) -> list[TenantFlagState]:
        found = [(name, *flag_repo.flag(tx, ctx.tenant, name, known)) for name in TENANT_FLAGS]
        return [TenantFlagState(tenant=ctx.tenant, flag=name, enabled=on, known_from=since)
                for name, on, since in found]

    return ctx.read(read)


def preference_outcome(ctx: Context, cmd: c.PreferenceOutcomeReport) -> Preference:
    """Count how acting on a preference turned out (accepted, rejected, revoked; unknown is only logged) and check
    for drift; answers the posterior as it now stands."""

    def work(w: Write) -> Preference:
        fact = _preference_fact(w.tx, ctx.tenant, cmd.fact_id)  # an unknown id answers 404 whatever the flag
        _require_flag(w.tx, ctx.tenant, w.known)
        found, open_drift = posterior_repo.posterior(w.tx, ctx.tenant, fact.fact_id, None)
        alpha, beta = (found["alpha"], found["beta"]) if found else rules.PRIOR
        outcomes, recent = (found["outcomes"], list(found.get("recent") or [])) if found else (0, [])
        if cmd.outcome == "unknown":
            ledger.audit(w.tx, ctx.tenant, w.known, [("preference_outcome", fact.fact_id, {
                "outcome": "unknown", "alpha": alpha, "beta": beta, "outcomes": outcomes})])
            return _answer(ctx.tenant, fact.fact_id, found, open_drift)
        alpha, beta = rules.updated(alpha, beta, cmd.outcome)
        row = {"fact_id": fact.fact_id, "version_id": new_id("pv"), "alpha": alpha, "beta": beta,
               "outcomes": outcomes + 1, "recent": rules.recent(recent, cmd.outcome),
               "sensitivity": fact.sensitivity}  # as sensitive as the preference it weighs
        posterior_repo.write_version(w.tx, ctx.tenant, w.known, row,
                                     previous=None if found is None else found["version_id"])
        ledger.audit(w.tx, ctx.tenant, w.known, [("preference_outcome", fact.fact_id, {
            "outcome": cmd.outcome, "version_id": row["version_id"], "alpha": alpha, "beta": beta,
            "outcomes": row["outcomes"]})])
        opened = drift.check(w, fact, row)
        return _answer(ctx.tenant, fact.fact_id, row | {"known_from": w.known}, opened or open_drift)

    return ctx.write(work)


def preference(ctx: Context, cmd: c.PreferenceQuery) -> Preference:
    """A preference's posterior as believed now or at `known_at`: α, β, strength, its lower bound, the outcomes
    counted and the drift item open for it then (the prior Beta(1, 1) before any outcome)."""
    known = None if cmd.known_at is None else ctx.known_point(cmd.known_at.at)

    def read(tx: Tx) -> Preference:
        fact = _preference_fact(tx, ctx.tenant, cmd.fact_id)
        _require_flag(tx, ctx.tenant, ctx.now())
        found, open_drift = posterior_repo.posterior(tx, ctx.tenant, fact.fact_id, known)
        return _answer(ctx.tenant, fact.fact_id, found, open_drift)

    return ctx.read(read)


def _require_flag(tx: Tx, tenant: str, known: datetime) -> None:
    """ConfigError naming the flag unless preference validation is on for the tenant (nothing is written)."""
    on, _since = flag_repo.flag(tx, tenant, FLAG, known)
    if not on:
        raise ConfigError(f"preference validation is off for this tenant (tenant flag {FLAG!r}); an admin turns it "
                          f"on with set_tenant_flag({FLAG!r}, enabled=true)")


def _preference_fact(tx: Tx, tenant: str, fact_id: str) -> Fact:
    """The current version of a preference fact the caller may see; NotFound, or InvalidInput for another fact."""
    current = [f for f in fact_repo.versions_of(tx, tenant, fact_id) if f.known_to is None]
    if not current:
        raise NotFound("fact", fact_id)
    fact = current[0]
    if not rules.is_preference(fact.predicate):
        raise InvalidInput("fact_id", f"fact {fact_id!r} states {fact.predicate!r}, not a preference (predicates "
                                      f"{', '.join(sorted(rules.PREFERENCE_PREDICATES))}; remember with "
                                      "category='preference' records one)")
    return fact


def _answer(tenant: str, fact_id: str, found: dict[str, Any] | None, open_drift: str | None) -> Preference:
    """The Preference a posterior version (None: the prior) makes."""
    alpha, beta = (found["alpha"], found["beta"]) if found else rules.PRIOR
    return Preference(fact_id=fact_id, tenant=tenant, alpha=alpha, beta=beta, strength=rules.strength(alpha, beta),
                      lower=rules.lower_bound(alpha, beta), outcomes=found["outcomes"] if found else 0,
                      recent=list(found.get("recent") or []) if found else [],
                      version_id=found["version_id"] if found else None,
                      known_from=found.get("known_from") if found else None,
                      known_to=found.get("known_to") if found else None, drift=open_drift)
