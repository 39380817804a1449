"""A weights file rewritten with one ``meta`` entry changed: what the tests of a malformed knob
(``danger``, ``views``) feed the loader."""

from __future__ import annotations

import json
import os
from typing import Any, Union

import numpy as np

Path = Union[str, "os.PathLike[str]"]


def with_meta(src: Path, dst: Path, key: str, value: Any) -> None:
    """Writes ``src``'s arrays to ``dst``, its ``meta[key]`` set to ``value``."""
    with np.load(src) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(bytes(arrays["meta"]).decode())
    meta[key] = value
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    np.savez(dst, **arrays)
