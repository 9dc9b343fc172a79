"""Recipes: record one by explaining a success, report how using it turned out, consent to a user-facing one, and
ask for the live ones of a task shape (DESIGN §9; the rules are services/procedural/rules.py).

Every write is one transaction with one ledger event (`record_recipe`, `recipe_outcome`, `consent_recipe`). A change
of counts or state is a new version (the old one closed at the write's known time), so `recipes(known_at=...)` reads
what the store believed then; an `unknown` outcome writes no version, only its ledger event.
"""

from __future__ import annotations

from credo.graph.core import ledger
from credo.graph.core.ledger import new_id
from credo.graph.gate import sources as source_repo
from credo.graph.procedural import recipes as recipe_repo
from credo.schema import commands_procedural as c
from credo.schema.errors import EvidenceRefused, InvalidInput, NotFound
from credo.schema.pages import After, checked_key, keyed_page
from credo.schema.recipes import Recipe
from credo.schema.search import most_sensitive
from credo.services.core.clearance import label
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write
from credo.services.gate import attest
from credo.services.gate import consent as consent_rules
from credo.services.policy import plan as write_policy
from credo.services.procedural import rules

def record_recipe(ctx: Context, cmd: c.RecordRecipe) -> Recipe:
    """Record a recipe for a task shape, earned by the success the source `because` shows; a user-facing one waits
    for a person's consent before it is served."""
    key = rules.shape_key(cmd.task_shape)
    written = label(ctx.clearance, None)

    def work(w: Write) -> Recipe:
        source = source_repo.by_ids(w.tx, ctx.tenant, [cmd.because]).get(cmd.because)
        if source is None:  # another tenant's, or one above the caller's clearance, reads as missing
            raise EvidenceRefused("because", f"no source {cmd.because!r} in this tenant: record the outcome first "
                                             "(add_source, a tool_result or an observation)")
        if source.tombstone is not None:
            raise EvidenceRefused("because", f"source {cmd.because!r} was forgotten: it is evidence of nothing")
        if not rules.outcome_shown(source.kind, source.origin):
            said = f"message from {source.origin}" if source.kind == "message" else source.kind
            raise EvidenceRefused("because", f"source {cmd.because!r} is a {said}, not an outcome: a recipe is earned "
                                             "by a tool_result or an observation (or a tool's own message, origin "
                                             "tool_result or task_result) that shows the success")
        row = {"recipe_id": new_id("r"), "version_id": new_id("rv"), "task_shape": cmd.task_shape, "shape_key": key,
               "steps": list(cmd.steps), "because": cmd.because, "user_facing": cmd.user_facing,
               "state": "pending_consent" if cmd.user_facing else "live", "uses": 0, "successes": 0,
               "rate": rules.success_rate(0, 0),
               # as sensitive as the outcome it names: a reader who may not see the source does not see the recipe
               "sensitivity": most_sensitive([written, source.sensitivity]),
               # DESIGN §9: refused when the tenant's policy gives procedural memory no slot
               "write_plan": write_policy.stamp(w, cmd, "procedural")}
        recipe_repo.write_version(w.tx, ctx.tenant, w.known, row, previous=None)
        ledger.audit(w.tx, ctx.tenant, w.known, [("record_recipe", row["recipe_id"], {
            "version_id": row["version_id"], "because": cmd.because, "shape_key": key, "state": row["state"]})])
        return Recipe(tenant=ctx.tenant, known_from=w.known, **{k: v for k, v in row.items() if v is not None})

    return ctx.write(work)


def recipe_outcome(ctx: Context, cmd: c.RecipeOutcomeReport) -> Recipe:
    """Count how using a recipe turned out (success or failure; unknown is only logged); it retires when its rate
    stays below the threshold over the minimum uses. Answers the recipe as it now stands."""

    def work(w: Write) -> Recipe:
        found = _current(w, cmd.recipe_id)
        state, uses, successes = rules.after_outcome(found.recipe_id, found.state, found.uses, found.successes,
                                                     cmd.outcome)
        detail = {"outcome": cmd.outcome, "uses": uses, "successes": successes, "state": state}
        if cmd.outcome == "unknown":
            ledger.audit(w.tx, ctx.tenant, w.known, [("recipe_outcome", found.recipe_id, detail)])
            return found
        changed = _next(found, state=state, uses=uses, successes=successes, rate=rules.success_rate(uses, successes))
        recipe_repo.write_version(w.tx, ctx.tenant, w.known, changed, previous=found.version_id)
        detail |= {"version_id": changed["version_id"], "retired": state == "retired" and found.state != "retired"}
        ledger.audit(w.tx, ctx.tenant, w.known, [("recipe_outcome", found.recipe_id, detail)])
        return Recipe(tenant=ctx.tenant, known_from=w.known, **changed)

    return ctx.write(work)


def consent_recipe(ctx: Context, cmd: c.ConsentRecipe) -> Recipe:
    """A person's answer to a user-facing recipe: accepted on the word of their message saying yes (consent's rules:
    services/gate/consent.py `answered`), it is served; declined, never."""
    if cmd.accept and cmd.message_id is None:
        raise InvalidInput("message_id", "accepting needs the person's message that says yes (its id, s_...): a "
                                         "user-facing recipe serves only on the person's word")

    def work(w: Write) -> Recipe:
        found = _current(w, cmd.recipe_id)
        state = rules.after_consent(found.recipe_id, found.state, found.user_facing, cmd.accept)
        changes: dict[str, object] = {"state": state}
        if cmd.accept:
            yes = consent_rules.answered(w.tx, ctx.tenant, str(cmd.message_id), texts=list(found.steps),
                                         asked_at=found.known_from, line=rules.surface_line(found.steps))
            attest.check_vouched(w.tx, ctx, w.known, [yes], field="message_id", use="consent")
            changes["consented_in"] = yes.source_id
        changed = _next(found, **changes)
        recipe_repo.write_version(w.tx, ctx.tenant, w.known, changed, previous=found.version_id)
        ledger.audit(w.tx, ctx.tenant, w.known, [("consent_recipe", found.recipe_id, {
            "version_id": changed["version_id"], "accept": cmd.accept, "state": state,
            "source_id": changes.get("consented_in")})])
        return Recipe(tenant=ctx.tenant, known_from=w.known, **changed)

    return ctx.write(work)


def recipes(ctx: Context, cmd: c.RecipesQuery, *, page: After | None = None) -> list[Recipe]:
    """The live recipes of a task shape (as believed at `known_at`, default now), best first: by rate, then uses.
    A retired, declined or not yet consented recipe is never among them. `page` reads one page in the query
    (keyset: `.next_after` is the key the next page starts after)."""
    key = rules.shape_key(cmd.task_shape)
    known = None if cmd.known_at is None else ctx.known_point(cmd.known_at.at)
    after = None if page is None else rules.page_key(checked_key(page, "text", "text", "text"))
    most = recipe_repo.ALL if page is None else page.limit + 1
    found = ctx.read(lambda tx: recipe_repo.of_shape(tx, ctx.tenant, key, sorted(rules.SERVED), known, after=after,
                                                     limit=most))
    return found if page is None else keyed_page(found, page, key=recipe_repo.recipe_key)


def _current(w: Write, recipe_id: str) -> Recipe:
    """The current version of a recipe the caller may see; NotFound otherwise (another tenant's id too)."""
    found = recipe_repo.current(w.tx, w.tenant, recipe_id)
    if found is None:
        raise NotFound("recipe", recipe_id)
    return found


def _next(found: Recipe, **changes: object) -> dict[str, object]:
    """The properties of the version after `found`, with `changes` and a new version id."""
    row = found.model_dump(exclude={"tenant", "known_from", "known_to"}, exclude_none=True)
    return row | changes | {"version_id": new_id("rv")}
