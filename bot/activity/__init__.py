"""The table in a Discord Activity (issue 48): the web page Discord opens in a channel, served by
the bot's own process — a second face of the table service beside the channel's message
(docs/activity.md)."""
