"""Discord-facing helpers shared by the cogs: replies, error answers, components, rendering."""
