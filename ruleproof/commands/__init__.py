"""The commands of ``ruleproof``, one module each.

A command module has ``add_parser(sub, common, texts)``, which declares its options (``common``: the
options every command takes, ``texts``: ``--rules-text``) and sets ``run=<function(args, lang) -> exit
code>`` as its parser's default.  Adding a command is that module and one entry in :data:`COMMANDS`.
"""

__all__ = ["COMMANDS"]

#: the commands, in the order ``ruleproof --help`` lists them (each the module ``ruleproof.commands.<name>``)
COMMANDS: tuple[str, ...] = (
    "check", "clauses", "run", "explain", "selftest", "graph", "consistency", "explore", "prove", "diff", "readings",
    "questions", "answer", "schema",
)
