"""Seeded random play of whole games through the service layer, with invariant checks after
every change and refused illegal moves between them (issue 15). Title-neutral: a title family
adds its own invariants by registering a checker (see `invariants`)."""
