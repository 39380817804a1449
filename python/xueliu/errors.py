"""Errors the ``xueliu`` command reports to a person as one line (the CLI sits on top of every
module, so the modules below raise these without importing it)."""

__all__ = ["CommandError", "BotError"]


class CommandError(Exception):
    """A problem with the user's input, reported as one line without a traceback."""


class BotError(RuntimeError):
    """A bot failed during a run: it raised, or returned an action that is not legal. The message
    names the bot, its seat and the hand (index and wall seed); ``__cause__`` is the bot's own
    exception (``xueliu --debug`` prints its traceback)."""
