"""Pure rules engines: no discord import anywhere below this package."""
