"""Training the neural bot (issue 18): demonstrations, behaviour cloning, PPO against a league,
evaluation on simulate's duplicate hands, export to the numpy weights the bot plays.

``python -m xueliu.train --help`` (or ``xueliu train``) runs the pipeline; it needs the ``train``
extra (``pip install ".[train]"``: PyTorch and matplotlib). The numpy-only parts — the
demonstrations (:mod:`.demos`), the evaluation (:mod:`.evaluate`) and a small numpy trainer for
machines without PyTorch (:mod:`.numpy_bc`) — import without it. docs/training.md has the
commands and their durations. :mod:`.trainer` runs the pipeline (its docstring names the module
of each stage).
"""
