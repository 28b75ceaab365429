"""The bot: SQLite store, frontend-neutral game service, Discord shell and console."""
