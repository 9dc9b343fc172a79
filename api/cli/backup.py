"""`credo backup [--to DIR]` and `credo restore DIR [--force]`: the local server's database, dumped and loaded by
Neo4j's own tools (ops/backup.py). Progress goes to stderr, the result to stdout; a restore whose checks fail
exits 1. With NEO4J_URI set both refuse in one line: that server's own tooling backs it up."""

from __future__ import annotations

import argparse
from pathlib import Path

from credo.ops.backup import backup, restore


def register(sub: argparse._SubParsersAction) -> None:
    """Add the backup and restore commands."""
    made = sub.add_parser("backup", help="dump the local Neo4j's database with a manifest (stops it meanwhile)",
                          description="Stop the local Neo4j, dump its database with Neo4j's own tool, write "
                                      "manifest.json beside it, start it again. CREDO_KEY_DIR is never in a backup.")
    made.add_argument("--to", type=Path, default=None,
                      help="a new or empty directory (default: <data dir>/backups/<instance>-<UTC time>)")
    made.set_defaults(handler=cmd_backup)
    back = sub.add_parser("restore", help="replace the local Neo4j's database by a backup, then check it",
                          description="Check the backup's manifest and sha256, load its dump into the stopped "
                                      "local Neo4j, start it, compare counts and ledger heads with the manifest, "
                                      "apply pending migrations and verify every tenant's ledger.")
    back.add_argument("directory", type=Path, help="a directory `credo backup` wrote")
    back.add_argument("--force", action="store_true", help="replace a database that holds data")
    back.set_defaults(handler=cmd_restore)


def cmd_backup(args: argparse.Namespace) -> int:
    """Write a backup and print where it is."""
    result = backup(args.settings, args.to)
    print(f"backup written to {result.directory} ({result.manifest.dump.file} + manifest.json; "
          f"the crypto-erasure keys are not in it)")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Restore a backup and print what its checks found; exit 1 when one failed."""
    result = restore(args.settings, args.directory, force=args.force)
    if result.migrated:
        print(f"migrated: {', '.join(f'{v:04d}' for v in result.migrated)}")
    for line in result.differences:
        print(f"differs: {line}")
    for tenant, outcome in result.ledgers.items():
        print(f"ledger {tenant}: {outcome}")
    verdict = "restored and checked: counts, ledger heads and every ledger match the backup" if result.ok else \
        "restored, but the checks above failed"
    print(f"{verdict} ({result.directory})")
    return 0 if result.ok else 1
