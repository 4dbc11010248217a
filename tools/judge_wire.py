"""What passes between the grader and the student's kernel: plain data, and nothing that can carry code.

Used on both sides. The grader (tools/judge.py) encodes the arguments of a call and decodes what the
kernel sends back; the kernel runs this same file's source (sent to it when it starts) to decode the
arguments, call the student's function and encode its result.

The format is JSON. Besides JSON's own values (None, bools, ints, floats, strings, lists) it knows
tuples, dicts, NumPy arrays and scalars of numeric or boolean dtype (their bytes in base64), and,
from the grader only, a function of the test's (``{"t": "callback"}``) that the kernel calls back
through the stdin channel. Anything else the kernel returns arrives as an ``Unreadable`` object that
only names its type. ``decode`` builds plain values only, of exactly these types, within size limits:
a value the student's code made cannot be a subclass that redefines equality, an object with
methods, or a pickle.
"""

import base64
import json

import numpy as np

MAX_BYTES = 32_000_000  # of the JSON of one message, and of the arrays in it
MAX_DEPTH = 32
NUMERIC_KINDS = "biufc"
CALLBACK_PROMPT = "\x00mlcourse-judge-callback\x00"


class WireError(ValueError):
    """A message that is not in the format (or over its limits)."""


class Unreadable:
    """Stands for a value of a type the wire does not carry (a module, a class instance...)."""

    def __init__(self, type_name):
        self.type_name = type_name

    def __repr__(self):
        return f"<a {self.type_name}, which the grader cannot receive>"


def _unreadable_type(type_name: str) -> type:
    """A subclass of Unreadable named after the value's type, so that messages such as "it is a
    Foo" name it; the name is reduced to a harmless identifier."""
    name = "".join(c for c in str(type_name) if c.isalnum() or c == "_")[:60] or "value"
    return type(name, (Unreadable,), {})


def encode(value, callback=None, depth=0):
    """``value`` as JSON-able data; ``callback(f)`` gives the id of a function argument (grader side)."""
    if depth > MAX_DEPTH:
        raise WireError("nested too deeply")
    if value is None or type(value) in (bool, str):
        return value
    if isinstance(value, np.generic):  # first: np.float64 is also a float
        if value.dtype.kind not in NUMERIC_KINDS:
            return {"t": "unreadable", "type": type(value).__name__}
        return {"t": "scalar", "dtype": value.dtype.str,
                "data": base64.b64encode(np.asarray(value).tobytes()).decode("ascii")}
    # A subclass is sent as the value it holds, read by the base class's own method (not by an
    # __int__ or __float__ it may redefine).
    if isinstance(value, int) and not isinstance(value, bool):
        return int.__int__(value)
    if isinstance(value, float):
        v = float.__float__(value)
        return v if v == v and abs(v) != float("inf") else {"t": "float", "v": repr(v)}
    if isinstance(value, np.ndarray):
        array = value if value.flags.c_contiguous else value.copy(order="C")  # (ascontiguousarray makes 0-d 1-d)
        if array.dtype.kind not in NUMERIC_KINDS:
            return {"t": "unreadable", "type": f"ndarray of dtype {array.dtype}"}
        return {"t": "ndarray", "dtype": array.dtype.str, "shape": list(array.shape),
                "data": base64.b64encode(array.tobytes()).decode("ascii")}
    if isinstance(value, tuple):
        return {"t": "tuple", "v": [encode(v, callback, depth + 1) for v in value]}
    if isinstance(value, list):
        return [encode(v, callback, depth + 1) for v in value]
    if isinstance(value, dict):
        return {"t": "dict", "v": [[encode(k, callback, depth + 1), encode(v, callback, depth + 1)]
                                   for k, v in value.items()]}
    if callback is not None and callable(value):
        return {"t": "callback", "id": callback(value)}
    return {"t": "unreadable", "type": type(value).__name__}


def decode(data, callback=None, depth=0, budget=None):
    """The value ``data`` (from ``encode``) stands for, built of plain types only.

    ``callback(id)`` makes the function that stands for a callback argument (kernel side); without
    it a callback is refused."""
    budget = budget if budget is not None else [MAX_BYTES]
    if depth > MAX_DEPTH:
        raise WireError("nested too deeply")
    if data is None or type(data) in (bool, int, float):
        return data
    if type(data) is str:
        _spend(budget, len(data))
        return str(data)
    if type(data) is list:
        _spend(budget, len(data))
        return [decode(v, callback, depth + 1, budget) for v in data]
    if type(data) is not dict or type(data.get("t")) is not str:
        raise WireError(f"unexpected {type(data).__name__}")
    kind = data["t"]
    if kind == "float":
        if data.get("v") not in ("nan", "inf", "-inf"):
            raise WireError("a float that is not nan or infinite")
        return float(data["v"])
    if kind in ("ndarray", "scalar"):
        dtype = _dtype(data.get("dtype"))
        raw = data.get("data")
        if type(raw) is not str:
            raise WireError("array data is not a string")
        _spend(budget, len(raw))
        buffer = base64.b64decode(raw.encode("ascii"), validate=True)
        if kind == "scalar":
            if len(buffer) != dtype.itemsize:
                raise WireError("a scalar of the wrong size")
            return np.frombuffer(buffer, dtype=dtype)[0].copy()
        shape = data.get("shape")
        if type(shape) is not list or not all(type(n) is int and 0 <= n for n in shape) or len(shape) > 32:
            raise WireError("a bad array shape")
        if int(np.prod(shape, dtype=object)) * dtype.itemsize != len(buffer):
            raise WireError("array data of the wrong size")
        return np.frombuffer(buffer, dtype=dtype).reshape(shape).copy()
    if kind == "tuple":
        return tuple(decode(data.get("v"), callback, depth + 1, budget))
    if kind == "dict":
        pairs = data.get("v")
        if type(pairs) is not list or not all(type(p) is list and len(p) == 2 for p in pairs):
            raise WireError("a bad dict")
        out = {}
        for k, v in pairs:
            key = decode(k, None, depth + 1, budget)
            if type(key) not in (str, int, float, bool, tuple) and key is not None:
                raise WireError("a dict key that cannot be hashed")
            out[key] = decode(v, callback, depth + 1, budget)
        return out
    if kind == "unreadable":
        return _unreadable_type(str(data.get("type", "value"))[:200])("".join(
            c for c in str(data.get("type", "value"))[:200] if c.isprintable()))
    if kind == "callback" and callback is not None and type(data.get("id")) is int:
        return callback(data["id"])
    raise WireError(f"unknown kind {kind[:40]!r}")


def _dtype(name) -> np.dtype:
    if type(name) is not str or len(name) > 8:
        raise WireError("a bad dtype")
    try:
        dtype = np.dtype(name)
    except TypeError:
        raise WireError("a bad dtype") from None
    if dtype.kind not in NUMERIC_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        raise WireError(f"dtype {dtype} is not carried")
    return dtype


def _spend(budget: list, n: int) -> None:
    budget[0] -= n
    if budget[0] < 0:
        raise WireError(f"larger than {MAX_BYTES} bytes")


def dumps(value, callback=None) -> str:
    text = json.dumps(encode(value, callback), allow_nan=False)
    if len(text) > MAX_BYTES:
        raise WireError(f"larger than {MAX_BYTES} bytes")
    return text


def loads(text, callback=None):
    if type(text) is not str or len(text) > MAX_BYTES:
        raise WireError(f"not a string of at most {MAX_BYTES} characters")
    return decode(json.loads(text), callback)


# ----------------------------------------------------------------------------- the kernel's side
# Run in the student's kernel (tools/judge.py sends this file's source), where it defines one name,
# __mlcourse_judge__, whose call() the grader invokes through user_expressions. Whatever the
# student's code does to it can only change what its own answers send back.

class _Reply:
    """What call() returns: shown to Jupyter as JSON, which reaches the grader without Python's repr."""

    def __init__(self, text):
        self.text = text

    def _repr_json_(self):
        return {"reply": self.text}

    def __repr__(self):
        return "<reply>"


class KernelSide:
    def __init__(self, namespace, raw_input):
        self.namespace, self.raw_input = namespace, raw_input

    def describe(self, names_json):
        """For each name: "function", "missing", or its value."""
        out = {}
        for name in json.loads(names_json):
            if name not in self.namespace:
                out[name] = {"missing": True}
            elif callable(self.namespace[name]) and not isinstance(self.namespace[name], type):
                out[name] = {"function": True}
            else:
                try:
                    out[name] = {"value": encode(self.namespace[name])}
                except Exception as err:  # noqa: BLE001 (anything the student's object raises)
                    out[name] = {"value": {"t": "unreadable", "type": f"{type(err).__name__} when read"}}
        return _Reply(json.dumps(out))

    def call(self, request_json):
        import traceback

        request = json.loads(request_json)
        args, kwargs = decode(request["args"], self._callback), decode(request["kwargs"], self._callback)
        reply = {}
        try:
            result = self.namespace[request["name"]](*args, **kwargs)
            reply["result"] = encode(result)
        except BaseException as err:  # noqa: BLE001 (the student's error is reported, whatever it is)
            tb = traceback.extract_tb(err.__traceback__)[1:]  # drop this frame
            reply["raised"] = {"ename": type(err).__name__, "evalue": str(err)[:2000],
                               "where": [f"{f.name}, line {f.lineno}: {(f.line or '').strip()[:200]}"
                                         for f in tb[-5:]]}
        reply["after"] = [encode(a) if isinstance(a, np.ndarray) else None for a in args]
        return _Reply(json.dumps(reply))

    def _callback(self, ident):
        def function_of_the_test(*args, **kwargs):
            answer = self.raw_input(CALLBACK_PROMPT + json.dumps({"id": ident, "args": encode(list(args)),
                                                                  "kwargs": encode(kwargs)}))
            reply = json.loads(answer)
            if "raised" in reply:
                raise RuntimeError(f"the function the test passed raised {reply['raised']}")
            return decode(reply["result"])

        return function_of_the_test
