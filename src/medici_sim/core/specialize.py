"""medici-sim's jitted functions compile once per argument type, never once per constant.

numba compiles a jitted function once for each list of argument types it is called with from
other jitted code, and a constant argument has a type of its own: ``begin_round_nb(state, 0, 0)``
calls ``begin_round_nb(Record, Literal[int](0), Literal[int](0))``. Worse, numba types a
function in rounds: a variable that starts as a constant and changes in a loop
(``seat = 0 ... seat += 1``, or a parameter that was passed a constant) is first taken for the
constant, so its callee is compiled for ``Literal[int](0)`` and then again for ``int64``, and
the first copy is never used. Of the 69 compilations of a first ``medici-sim --games 1000000``,
16 were such copies (``finish_turn_nb`` was compiled four times), 2.7 s of its 14 s.

:func:`compile_by_type` makes a call to a medici-sim function take integer and boolean
constants as plain ``int64`` / ``bool``: one compilation per function and signature. No
medici-sim function needs a constant argument's value at compile time (numba's
``literally``); other packages' functions (numba's own, a plug-in's) are left as numba makes them.
"""
from __future__ import annotations

from numba.core import types
from numba.core.dispatcher import Dispatcher

_PACKAGE = __name__.split(".")[0] + "."


def _plain(argument):
    """An integer or boolean constant's type as its plain type; any other type unchanged."""
    if isinstance(argument, (types.IntegerLiteral, types.BooleanLiteral)):
        return types.unliteral(argument)
    return argument


def compile_by_type() -> None:
    """Make calls to medici-sim's jitted functions from jitted code resolve constants by type
    (idempotent; call before anything is compiled)."""
    original = Dispatcher.get_call_template
    if getattr(original, "by_type", False):
        return

    def get_call_template(self, args, kws):
        if (getattr(self.py_func, "__module__", None) or "").startswith(_PACKAGE):
            args = tuple(map(_plain, args))
            kws = {name: _plain(value) for name, value in kws.items()}
        return original(self, args, kws)

    get_call_template.by_type = True
    Dispatcher.get_call_template = get_call_template
