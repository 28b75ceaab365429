"""The Discord front end: the app, command cogs, persistent buttons and thread posts."""
