"""`python -m credo` runs the command line."""

from credo.api.cli import main

raise SystemExit(main())
