"""The bot: the service layer (core), the Discord front end (discord_ui) and the command line
(cli) with console play."""
