"""The operation registry: every public operation once, with its command model and its name on each surface.

Surfaces (REST routes, MCP tools, CLI commands, the HTTP client) and the parity test read this list; an operation
added here without a route, a tool (or a reason why not), a CLI command (or a reason) fails the parity test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from credo.schema import commands as c
from credo.schema import commands_consent as ccons
from credo.schema import commands_diff as cd
from credo.schema import commands_episodic as ce
from credo.schema import commands_forget as cf
from credo.schema import commands_import as cimp
from credo.schema import commands_inspector as ci
from credo.schema import commands_ledger as cl
from credo.schema import commands_lifecycle as lc
from credo.schema import commands_preferences as pref
from credo.schema import commands_procedural as proc
from credo.schema import commands_policy as pol
from credo.schema import commands_recall as recall
from credo.schema import commands_search as cs
from credo.schema import commands_transition as ctr
from credo.schema import commands_verify as cver
from credo.schema.cascade import CascadeReport, Justification, StaleItem, Summary
from credo.schema.consent import ConsentResult, Remembered
from credo.schema.context_package import ContextPackage
from credo.schema.diff import BeliefDiff
from credo.schema.entities import Entity
from credo.schema.episodic import Reflection, RollOff
from credo.schema.forget import ForgetJob, ForgetResult, ResidueReport
from credo.schema.facts import AsOf, AsOfAnswer, Conflict, Fact, PathStep, PredicateDef, Relation
from credo.schema.imports import ImportReport
from credo.schema.ledger import AuditPage, LedgerReport
from credo.schema.preferences import FlagSetting, Preference, TenantFlagState
from credo.schema.provenance import ExtractionResult, WhyTree
from credo.schema.receipts import ReadReceipt
from credo.schema.recipes import Recipe
from credo.schema.policy import WritePolicyVersion, WritePolicyVersions
from credo.schema.search import SearchResult
from credo.schema.sources import Source
from credo.schema.transition import TransitionReport
from credo.schema.utility import MaintainReport, MemoryUsage
from credo.schema.verify import ReviewItem, VerifyOutcome


@dataclass(frozen=True)
class Operation:
    """One public operation and how each surface names it."""

    name: str
    scope: str  # the one scope a key needs to call it (schema/api_keys.py SCOPES)
    command: type[c.Command]
    store_method: str
    http_method: str
    path: str
    returns: Any  # the Store method's return type (a model, a list of models, an `AsOf[...]` answer, or None)
    write: bool = False  # a write answers with its cascade report
    mcp: str | None = None
    mcp_reason: str | None = None  # why an agent has no tool for it (required when `mcp` is None)
    cli: str | None = None
    cli_reason: str | None = None  # why the CLI has no command for it (required when `cli` is None)
    task_scope: str | None = None  # the scope needed instead when the call records a read receipt (`task` given)

    @property
    def path_params(self) -> list[str]:
        """The `{name}` placeholders of the path, in order (`{entity:path}`, which also takes a name containing
        "/" such as "CI/CD", as `entity`)."""
        return re.findall(r"\{(\w+)(?::path)?\}", self.path)

    def scope_for(self, fields: dict[str, Any]) -> str:
        """The scope this call needs: `task_scope` when it records a read receipt, else `scope`."""
        return self.task_scope if self.task_scope and fields.get("task") else self.scope

    @property
    def paged(self) -> bool:
        """Lists are paginated with a cursor (an as-of read's answer too)."""
        return getattr(self.returns, "__origin__", None) in (list, AsOf)

    @property
    def as_of(self) -> type[AsOfAnswer] | None:
        """The model an as-of read answers on every surface (`AsOfAnswer[Fact]`, ...), None for other operations."""
        if getattr(self.returns, "__origin__", None) is not AsOf:
            return None
        return AsOfAnswer[self.returns.__args__[0]]  # type: ignore[index]


_ADMIN = "an administrative or curatorial act; agents use remember, the write gate, instead"
_CURATE = "a curator's decision with a named actor and reason, not an agent's act"
_SDK = "covered by the Python API, REST and credo.Client; no CLI command yet"

OPERATIONS: list[Operation] = [
    # facts and time
    Operation("add_fact", "curate", c.AddFact, "add_fact", "POST", "/v1/facts", Fact, write=True,
              mcp_reason="agents record claims through remember (verbatim human quote)", cli="fact add"),
    Operation("add_facts", "curate", c.AddFacts, "add_facts", "POST", "/v1/facts/batch", list[Fact], write=True,
              mcp_reason="bulk import is an operator's job", cli_reason="bulk import goes through Python or REST"),
    Operation("correct_fact", "curate", c.CorrectFact, "correct_fact", "POST", "/v1/facts/{fact_id}/correct", Fact, write=True,
              mcp_reason="agents correct through remember(replaces=...) so the gate checks the evidence",
              cli="fact correct"),
    Operation("succeed_fact", "curate", c.SucceedFact, "succeed_fact", "POST", "/v1/facts/{fact_id}/succeed", Fact, write=True,
              mcp_reason="agents record changes through remember(replaces=...)", cli="fact succeed"),
    Operation("end_fact", "curate", c.EndFact, "end_fact", "POST", "/v1/facts/{fact_id}/end", Fact, write=True,
              mcp_reason=_ADMIN, cli="fact end"),
    Operation("retract_fact", "curate", c.RetractFact, "retract_fact", "POST", "/v1/facts/{fact_id}/retract", list[Fact],
              write=True, mcp_reason=_ADMIN, cli="fact retract"),
    Operation("write_range", "curate", c.WriteRange, "write_range", "POST", "/v1/facts/range", Fact, write=True,
              mcp_reason=_ADMIN, cli_reason=_SDK),
    # reading
    Operation("facts", "read", c.FactsQuery, "facts", "GET", "/v1/facts", AsOf[Fact], mcp="facts_as_of", cli="facts"),
    Operation("history", "read", c.HistoryQuery, "history", "GET", "/v1/facts/{fact_id}/history", list[Fact],
              mcp_reason="why answers an agent's question about a fact's past", cli="history"),
    Operation("chain", "read", c.ChainQuery, "chain", "GET", "/v1/chains", list[Fact],
              mcp_reason="facts_as_of and why cover an agent's reads", cli="chain"),
    Operation("relations", "read", c.WhoQuery, "relations", "GET", "/v1/entities/{entity:path}/relations", AsOf[Relation],
              mcp="who", cli="who"),
    Operation("holders", "read", c.HoldersQuery, "holders", "GET", "/v1/holders", AsOf[Fact],
              mcp_reason="who (relations) covers an agent's who-is-who reads", cli_reason=_SDK),
    Operation("path", "read", c.PathQuery, "path", "GET", "/v1/paths", list[PathStep] | None,
              mcp_reason="who covers an agent's who-is-who reads", cli_reason=_SDK),
    # governance
    Operation("define_predicate", "curate", c.DefinePredicate, "define_predicate", "POST", "/v1/predicates", PredicateDef,
              mcp_reason=_ADMIN, cli="predicate"),
    Operation("predicates", "read", c.PredicatesQuery, "predicates", "GET", "/v1/predicates", list[PredicateDef],
              mcp_reason=_ADMIN, cli_reason=_SDK),
    Operation("conflicts", "read", c.ConflictsQuery, "conflicts", "GET", "/v1/conflicts", list[Conflict],
              mcp="conflicts", cli="conflicts"),
    Operation("resolve_conflict", "curate", c.ResolveConflict, "resolve_conflict", "POST", "/v1/conflicts/{conflict_id}/resolve",
              Fact, write=True, mcp="resolve_conflict", cli="resolve"),
    Operation("merge_entities", "curate", c.MergeEntities, "merge_entities", "POST", "/v1/entities/merge", Entity, write=True,
              mcp_reason=_ADMIN, cli_reason=_SDK),
    Operation("unmerge_entities", "curate", c.UnmergeEntities, "unmerge_entities", "POST", "/v1/entities/unmerge", Entity,
              write=True, mcp_reason=_ADMIN, cli_reason=_SDK),
    # provenance and the write gate
    Operation("add_source", "write", c.AddSource, "add_source", "POST", "/v1/sources", Source, write=True,
              mcp_reason="agents hand over conversation turns with add_messages", cli_reason=_SDK),
    Operation("ingest_messages", "write", c.IngestMessages, "ingest_messages", "POST", "/v1/sessions/{session_id}/messages",
              list[Source], write=True, mcp="add_messages", cli_reason=_SDK),
    Operation("cite", "curate", c.Cite, "cite", "POST", "/v1/facts/{fact_id}/cite", None, write=True,
              mcp_reason=_ADMIN, cli_reason=_SDK),
    Operation("remember", "write", c.Remember, "remember", "POST", "/v1/sessions/{session_id}/remember", Remembered,
              write=True,
              mcp="remember", cli_reason="the gate needs a live conversation turn; agents use MCP or REST"),
    Operation("accept", "write", c.Accept, "accept", "POST", "/v1/facts/{fact_id}/accept", Fact, write=True,
              mcp_reason="acceptance is recorded by the application that shows the human message", cli_reason=_SDK),
    Operation("extract", "write", c.Extract, "extract", "POST", "/v1/sessions/{session_id}/extract", ExtractionResult,
              write=True, mcp_reason="extraction is a background job run by the operator", cli_reason=_SDK),
    Operation("admit", "curate", c.Admit, "admit", "POST", "/v1/facts/{fact_id}/admit", Fact, write=True,
              mcp_reason="admission names a person or policy, not an agent", cli_reason=_SDK),
    Operation("reject", "curate", c.Reject, "reject", "POST", "/v1/facts/{fact_id}/reject", Fact, write=True,
              mcp_reason="rejection is a person's or policy's decision", cli_reason=_SDK),
    Operation("merge_facts", "curate", c.MergeFacts, "merge_facts", "POST", "/v1/facts/merge", Fact, write=True,
              mcp_reason=_ADMIN, cli_reason=_SDK),
    Operation("why", "read", c.WhyQuery, "why", "GET", "/v1/facts/{fact_id}/why", WhyTree, mcp="why", cli="why"),
    Operation("export_prov", "read", c.ExportProv, "export_prov", "GET", "/v1/facts/{fact_id}/prov", dict[str, Any],
              mcp_reason="PROV-JSON is for auditors' tools, not agents", cli_reason=_SDK),
    # premises, summaries, cascade
    Operation("justify", "curate", c.Justify, "justify", "POST", "/v1/facts/{fact_id}/justifications", str, write=True,
              mcp_reason=_ADMIN, cli_reason=_SDK),
    Operation("justifications", "read", c.JustificationsQuery, "justifications", "GET", "/v1/facts/{fact_id}/justifications",
              list[Justification], mcp_reason="why lists a fact's premises for an agent", cli_reason=_SDK),
    Operation("add_summary", "curate", c.AddSummary, "add_summary", "POST", "/v1/summaries", Summary, write=True,
              mcp_reason=_ADMIN, cli_reason=_SDK),
    Operation("rebuild", "curate", c.Rebuild, "rebuild", "POST", "/v1/summaries/{summary_id}/rebuild", Summary, write=True,
              mcp_reason="rebuilding runs the server's summarizer; an operator's job", cli="rebuild"),
    Operation("summaries", "read", c.SummariesQuery, "summaries", "GET", "/v1/summaries", list[Summary],
              mcp_reason="later issues add context/recall tools that serve summaries", cli_reason=_SDK),
    Operation("summary", "read", c.SummaryQuery, "summary", "GET", "/v1/summaries/{summary_id}", Summary,
              mcp_reason="later issues add context/recall tools that serve summaries", cli_reason=_SDK),
    Operation("reverify", "curate", c.Reverify, "reverify", "POST", "/v1/facts/{fact_id}/reverify", Fact, write=True,
              mcp="reverify", cli="reverify"),
    Operation("stale", "read", c.StaleQuery, "stale", "GET", "/v1/stale", list[StaleItem], mcp="stale", cli="stale"),
    Operation("diff", "read", cd.DiffQuery, "diff", "GET", "/v1/diff", BeliefDiff, mcp="belief_diff", cli="diff"),
    Operation("maintain", "admin", c.Maintain, "maintain", "POST", "/v1/maintain", MaintainReport,
              mcp_reason="a scheduled sweep an operator runs (credo maintain), not an agent's act", cli="maintain"),
    # lifecycle
    Operation("deprecate", "curate", lc.Deprecate, "deprecate", "POST", "/v1/facts/{fact_id}/deprecate", Fact, write=True,
              mcp_reason=_CURATE, cli="deprecate"),
    Operation("quarantine", "curate", lc.Quarantine, "quarantine", "POST", "/v1/quarantine", list[Fact], write=True,
              mcp_reason=_CURATE, cli="quarantine"),
    Operation("release", "curate", lc.Release, "release", "POST", "/v1/release", list[Fact], write=True,
              mcp_reason=_CURATE, cli="release"),
    # search
    Operation("search", "read", cs.SearchQuery, "search", "GET", "/v1/search", SearchResult, mcp="search", cli="search",
              task_scope="write"),
    # recall: the context package and read receipts (issue 11 items 3 and 5)
    Operation("context", "read", recall.ContextQuery, "context", "GET", "/v1/context", ContextPackage,
              mcp="context", cli="context", task_scope="write"),
    Operation("served_to", "read", recall.ServedToQuery, "served_to", "GET", "/v1/tasks/{task}/receipts", list[ReadReceipt],
              mcp_reason="an audit of what a task was served, asked by the people who run the agent",
              cli="served-to"),
    Operation("tasks_served", "read", recall.TasksServedQuery, "tasks_served", "GET", "/v1/facts/{fact_id}/tasks",
              list[ReadReceipt], mcp_reason="an audit (and forgetting's input), not an agent's read",
              cli="tasks-served"),
    # forgetting
    Operation("forget", "forget", cf.Forget, "forget", "POST", "/v1/items/{target_id}/forget", ForgetResult, write=True,
              mcp="forget", cli="forget item"),
    Operation("purge", "forget", cf.Purge, "purge", "POST", "/v1/items/{target_id}/purge", ResidueReport, write=True,
              mcp_reason="deleting the tombstone is an operator's retention decision", cli="forget purge"),
    Operation("verify_forgotten", "read", cf.VerifyForgotten, "verify_forgotten", "GET", "/v1/items/{target_id}/residue",
              ResidueReport, mcp="verify_forgotten", cli="forget verify"),
    Operation("forget_subject", "forget", cf.ForgetSubject, "forget_subject", "POST", "/v1/entities/{entity:path}/forget", ForgetJob,
              write=True, mcp_reason="a batched job an operator runs; agents forget one id with forget",
              cli="forget subject"),
    Operation("forget_tenant", "admin", cf.ForgetTenant, "forget_tenant", "POST", "/v1/tenant/forget", ForgetJob, write=True,
              mcp_reason="erasing a whole tenant is an operator's act", cli="forget tenant"),
    Operation("forget_resume", "admin", cf.ForgetResume, "forget_resume", "POST", "/v1/tenant/forget/resume", list[ForgetJob],
              write=True, mcp_reason="recovering a crashed job is an operator's act", cli="forget resume"),
    # inspector
    Operation("entity_versions", "read", ci.EntityVersionsQuery, "entity_versions", "GET", "/v1/entities/{entity:path}/versions",
              list[Fact], mcp_reason="the timeline is for a person; agents read facts_as_of and why", cli="versions"),
    # ledger: the hash-chained audit ledger and the utility ledger (issue 12 items 5-6)
    Operation("audit", "admin", cl.AuditQuery, "audit", "GET", "/v1/audit", AuditPage,
              mcp_reason="the audit ledger is read by auditors and operators, not by agents", cli="audit"),
    Operation("verify_ledger", "admin", cl.VerifyLedger, "verify_ledger", "GET", "/v1/audit/verify", LedgerReport,
              mcp_reason="verifying the ledger is an auditor's check, not an agent's act", cli="verify-ledger"),
    Operation("feedback", "write", cl.Feedback, "feedback", "POST", "/v1/recalls/{receipt_id}/feedback", MemoryUsage,
              mcp="feedback", cli="feedback"),
    Operation("utility", "read", cl.UtilityQuery, "utility", "GET", "/v1/facts/{fact_id}/utility", MemoryUsage,
              mcp_reason="an operator's view of a memory's tier and utility", cli="utility"),
    # procedural memory: recipes keyed by (tenant, task shape) (issue 27 item 1)
    Operation("record_recipe", "write", proc.RecordRecipe, "record_recipe", "POST", "/v1/recipes", Recipe, write=True,
              mcp="record_recipe", cli="recipe add"),
    Operation("recipe_outcome", "write", proc.RecipeOutcomeReport, "recipe_outcome", "POST",
              "/v1/recipes/{recipe_id}/outcome", Recipe, write=True, mcp="recipe_outcome", cli="recipe outcome"),
    Operation("recipes", "read", proc.RecipesQuery, "recipes", "GET", "/v1/recipes", list[Recipe], mcp="recipes",
              cli="recipes"),
    Operation("consent_recipe", "write", proc.ConsentRecipe, "consent_recipe", "POST", "/v1/recipes/{recipe_id}/consent",
              Recipe, write=True, mcp_reason="consent is a person's answer, recorded by the application that asked them",
              cli="recipe consent"),
    # import: the pipelined bulk import (issue 9 item 5)
    Operation("import_facts", "admin", cimp.ImportFacts, "import_facts", "POST", "/v1/facts/import", ImportReport, write=True,
              mcp_reason="bulk import is an operator's job, not an agent's tool", cli="import"),
    # verification: the transition check (issue 27 item 2)
    Operation("check_transition", "read", ctr.TransitionQuery, "check_transition", "GET", "/v1/transition",
              TransitionReport, mcp="check_transition", cli="transition"),
    # verification beyond the quote gate: the verifier and the human review queue (issue 27 item 2)
    Operation("verify", "write", cver.Verify, "verify", "POST", "/v1/facts/{fact_id}/verify", VerifyOutcome,
              write=True, mcp_reason="the operator's configured verifier runs it; a verdict is not an agent's to seek",
              cli="verify"),
    Operation("review_queue", "curate", cver.ReviewQueueQuery, "review_queue", "GET", "/v1/reviews",
              list[ReviewItem], mcp_reason=_CURATE, cli="reviews"),
    Operation("review", "curate", cver.Review, "review", "POST", "/v1/reviews/{item_id}", ReviewItem, write=True,
              mcp_reason=_CURATE, cli="review"),
    # the write policy, explicit and per kind (issue 27 item 1)
    Operation("set_write_policy", "admin", pol.SetWritePolicy, "set_write_policy", "POST", "/v1/policy",
              WritePolicyVersion, write=True,
              mcp_reason="what each kind of memory earns and who sees it is an operator's decision, not an agent's",
              cli="policy set"),
    Operation("write_policy", "read", pol.WritePolicyQuery, "write_policy", "GET", "/v1/policy", WritePolicyVersion,
              mcp_reason="an operator's view of the tenant's configuration; an agent's writes are planned by it",
              cli="policy show"),
    # preference validation, off by default behind a tenant flag (issue 27 item 3)
    Operation("set_tenant_flag", "admin", pref.SetTenantFlag, "set_tenant_flag", "POST", "/v1/tenant/flags",
              FlagSetting, write=True, mcp_reason="a tenant's configuration is an operator's act", cli="tenant-flag"),
    Operation("tenant_flags", "read", pref.TenantFlagsQuery, "tenant_flags", "GET", "/v1/tenant/flags",
              list[TenantFlagState], mcp_reason="an operator's view of the tenant's configuration; an agent is told "
              "by the refusals a flag causes", cli="tenant-flags"),
    Operation("preference_outcome", "write", pref.PreferenceOutcomeReport, "preference_outcome", "POST",
              "/v1/facts/{fact_id}/preference/outcome", Preference, write=True, mcp="preference_outcome",
              cli="preference outcome"),
    Operation("preference", "read", pref.PreferenceQuery, "preference", "GET", "/v1/facts/{fact_id}/preference",
              Preference, mcp="preference", cli="preference show"),
    # episodic memory: the timeline, TTL roll-off and reflection (issue 27 item 1)
    Operation("timeline", "read", ce.TimelineQuery, "timeline", "GET", "/v1/timeline", list[Fact], mcp="timeline",
              cli="timeline"),
    Operation("roll_off", "forget", ce.RollOffEpisodes, "roll_off", "POST", "/v1/episodes/roll-off", RollOff,
              write=True, mcp_reason="roll-off forgets by the tenant's TTLs on a schedule (an operator's job, run by "
              "`maintain` too); an agent forgets nothing by age", cli="roll-off"),
    Operation("reflect", "write", ce.Reflect, "reflect", "POST", "/v1/reflect", Reflection, mcp="reflect",
              cli="reflect"),  # write: it records its run in the ledger (a read-only key can commit nothing)
    # consent to a surfaced semantic write (issue 27 item 1, DESIGN §9)
    Operation("consent", "write", ccons.Consent, "consent", "POST", "/v1/facts/{fact_id}/consent", ConsentResult,
              write=True, mcp="consent", cli="consent"),
    # the write policy's versions: who set each, when, what changed (issue 27 item 1)
    Operation("write_policy_versions", "read", pol.WritePolicyVersionsQuery, "write_policy_versions", "GET",
              "/v1/policy/versions", WritePolicyVersions,
              mcp_reason="an operator's audit of the tenant's configuration over time; an agent's writes are planned "
                         "by the policy in force, never by its history", cli="policy versions"),
]

BY_NAME: dict[str, Operation] = {op.name: op for op in OPERATIONS}
