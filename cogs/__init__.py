"""One cog per game plus help, stats and server configuration (loaded by `create_bot`)."""
