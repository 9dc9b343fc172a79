"""The MCP surface: the tools (`server.py`, over stdio) and their streamable-HTTP mount behind API keys (`http.py`)."""
