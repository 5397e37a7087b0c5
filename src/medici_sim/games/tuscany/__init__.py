"""The Castles of Tuscany (T1-T40, docs/rules-tuscany.md): rules and components as data, the
reference engine. Not registered as a game yet (games/__init__.py does not import it)."""
