"""The neutral bottom package: the game contract and i18n. It imports nothing of ours;
``rules/``, ``render/``, ``host/`` and ``cogs/`` all build on it."""
