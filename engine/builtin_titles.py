"""Imports every shipped title so that it registers itself."""

import engine.g1830  # noqa: F401,E402
import engine.g1860  # noqa: F401,E402
import engine.strings.game  # noqa: F401,E402
