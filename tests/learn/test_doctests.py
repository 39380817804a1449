"""The examples in the docstrings of the learning modules and the bots run and show what they
say."""

import doctest
import importlib

import pytest

MODULES = ["xueliu.learn", "xueliu.learn.actions", "xueliu.learn.encoders", "xueliu.envs",
           "xueliu.envs.aec", "xueliu.envs.parallel", "xueliu.envs.single_seat",
           "xueliu.envs.vector", "xueliu.simulate", "xueliu.bots", "xueliu.bots.lifecycle",
           "xueliu.bots.autoplay", "xueliu.bots.random_bot", "xueliu.bots.greedy",
           "xueliu.bots.expert", "xueliu.bots.expert_value"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
