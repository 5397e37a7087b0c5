"""A plug-in file that fails as it is imported, for docs/plugins.md."""
raise RuntimeError("oops")
