"""Adapters to the outside: embedders, LLM clients, extractors, summarizers and key stores. Every capability may
use them; they know nothing of the use cases."""
