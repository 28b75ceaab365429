"""Run `python -m bot.cli ...` like the `railchat` command."""

import sys

from bot.cli import main

sys.exit(main())
