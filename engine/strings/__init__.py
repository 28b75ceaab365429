"""String Railway: stations and string rails on an open table, with exact geometry."""
