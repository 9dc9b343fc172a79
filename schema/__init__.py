"""Credo's pydantic models and error tree; imports nothing from the other packages."""
