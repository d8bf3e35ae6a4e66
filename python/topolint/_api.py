"""ctypes binding of libtopolint_c (include/topolint/topolint_c.h)."""
import base64
import ctypes
import ctypes.util
import json
import os
import threading
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union


class TopolintError(Exception):
    """A request topolint cannot carry out (bad option, missing file...).

    `code` says what went wrong: "invalid_request", "invalid_argument",
    "not_found", "unreadable" or "internal" (topolint_c.h). A file that does
    not parse is a finding, not an error.
    """

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Location:
    file: str
    line: int = 0  # 1-based; 0 = the whole file
    column: int = 0  # 1-based bytes; 0 = the whole line
    # Binary inputs (an HloModuleProto) have no lines: the byte offset and
    # what is there ("computation %main, op %ar").
    byte_offset: Optional[int] = None
    logical_location: Optional[str] = None

    def __str__(self) -> str:
        s = self.file
        if self.line:
            s += ":%d" % self.line
            if self.column:
                s += ":%d" % self.column
        return s

    def _fields(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {"file": self.file, "line": self.line,
                             "column": self.column}
        if self.byte_offset is not None:
            d["byte_offset"] = self.byte_offset
        if self.logical_location is not None:
            d["logical_location"] = self.logical_location
        return d


@dataclass(frozen=True)
class Note:
    message: str
    location: Location

    def to_dict(self) -> Dict[str, Any]:
        """The note as in `--format json` (docs/findings.schema.json)."""
        d: Dict[str, Any] = {"message": self.message}
        d.update(self.location._fields())
        return d


@dataclass(frozen=True)
class Edit:
    """One edit of a Fix, as the rule states it (docs/findings.schema.json):
    `kind` "replace" (`original` at line:column becomes `replacement`),
    "remove_line_comment" (the `topolint:` comment there is removed) or
    "replace_integer_array" (the JSON array there becomes `replacement`).
    `offset` is the byte of the file where it applies, `original` the bytes
    the rule saw there, which `--fix` checks."""
    kind: str
    file: str
    line: int
    column: int
    original: Optional[str] = None
    replacement: Optional[str] = None
    offset: Optional[int] = None

    def to_dict(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {"kind": self.kind, "file": self.file,
                             "line": self.line, "column": self.column}
        if self.offset is not None:
            d["offset"] = self.offset
        if self.original is not None:
            d["original"] = self.original
        if self.replacement is not None:
            d["replacement"] = self.replacement
        return d


@dataclass(frozen=True)
class Fix:
    """The edits `topolint check --fix` would make for a finding
    (`applied_by` says with which options)."""
    title: str
    applied_by: str  # "--fix" or "--fix --fix-from hlo"
    edits: List[Edit] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        return {"title": self.title, "applied_by": self.applied_by,
                "edits": [e.to_dict() for e in self.edits]}


@dataclass(frozen=True)
class Finding:
    rule: str  # e.g. "xref-topology-mismatch"
    severity: str  # "error", "warning" or "note"
    message: str
    location: Location
    notes: List[Note] = field(default_factory=list)
    fingerprint: str = ""
    fix: Optional[Fix] = None  # when the rule is certain of an edit

    def __str__(self) -> str:
        where = str(self.location)
        if self.location.logical_location:
            where += ":%s" % self.location.logical_location
        return "%s: %s: %s [%s]" % (where, self.severity,
                                    self.message, self.rule)

    def to_dict(self) -> Dict[str, Any]:
        """The finding as one element of `topolint check --format json`
        (docs/findings.schema.json)."""
        d: Dict[str, Any] = {"rule": self.rule, "severity": self.severity,
                             "message": self.message}
        d.update(self.location._fields())
        d["notes"] = [n.to_dict() for n in self.notes]
        d["fingerprint"] = self.fingerprint
        if self.fix is not None:
            d["fix"] = self.fix.to_dict()
        return d


# The version of docs/findings.schema.json that Finding.to_dict() and
# `topolint check --format json` follow.
FINDINGS_SCHEMA_VERSION = "1"

_lib = None
_lib_path = None
_lock = threading.Lock()


def _candidates() -> List[str]:
    out = []
    env = os.environ.get("TOPOLINT_LIBRARY")
    if env:
        out.append(env)
    try:  # written by `cmake --install`
        from topolint import _install  # type: ignore

        here = os.path.dirname(os.path.abspath(__file__))
        out.append(os.path.normpath(os.path.join(here, _install.LIBRARY)))
    except ImportError:
        pass
    found = ctypes.util.find_library("topolint_c")
    if found:
        out.append(found)
    return out


def _load():
    global _lib, _lib_path
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for path in _candidates():
            try:
                lib = ctypes.CDLL(path)
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            for name in ("topolint_check_json", "topolint_explain_json"):
                fn = getattr(lib, name)
                fn.argtypes = [ctypes.c_char_p]
                # c_void_p: the pointer must reach topolint_free intact.
                fn.restype = ctypes.c_void_p
            # Optional: a library older than topolint_check_text lacks it.
            if hasattr(lib, "topolint_check_text"):
                lib.topolint_check_text.argtypes = [
                    ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                    ctypes.c_void_p, ctypes.c_size_t]
                lib.topolint_check_text.restype = ctypes.c_void_p
            lib.topolint_free.argtypes = [ctypes.c_void_p]
            lib.topolint_free.restype = None
            lib.topolint_version.argtypes = []
            lib.topolint_version.restype = ctypes.c_char_p
            _lib, _lib_path = lib, path
            return lib
        raise TopolintError(
            "cannot load libtopolint_c (tried: %s); install topolint with "
            "`cmake --install` or set TOPOLINT_LIBRARY to the library's path"
            % ("; ".join(tried) or "nothing found"), "not_found")


def library_path() -> str:
    """The path of the libtopolint_c that is loaded."""
    _load()
    return _lib_path


def version() -> str:
    """The library version, e.g. "0.1.0"."""
    return _load().topolint_version().decode()


def _response(lib, fn_name: str, ptr) -> Any:
    if not ptr:
        raise MemoryError(fn_name + " returned NULL")
    try:
        response = json.loads(ctypes.string_at(ptr).decode())
    finally:
        lib.topolint_free(ptr)
    if isinstance(response, dict) and "error" in response:
        raise TopolintError(response["error"], response.get("code", ""))
    return response


def _call(fn_name: str, request: Dict[str, Any]) -> Any:
    lib = _load()
    ptr = getattr(lib, fn_name)(json.dumps(request).encode())
    return _response(lib, fn_name, ptr)


def _library_text(value: Any, what: str) -> str:
    """`value` (a path or display name: str, bytes or os.PathLike) as the
    str the library is given. The library takes UTF-8 text without NUL
    (JSON strings, C strings): bytes are decoded as UTF-8, and a name it
    cannot carry (bytes or an `os.fsdecode` str that are not UTF-8, a lone
    surrogate, a NUL, which C would cut the name at) is refused with
    TopolintError("invalid_argument"), never passed on changed."""
    try:
        value = os.fspath(value)
    except TypeError:
        raise TopolintError("%s: expected a str, bytes or os.PathLike, not %s"
                            % (what, type(value).__name__),
                            "invalid_argument") from None
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError as e:
            raise TopolintError(
                "%s %r is not UTF-8 (byte %d): the library takes UTF-8 "
                "paths; rename it, or run the `topolint` command on it"
                % (what, value, e.start), "invalid_argument") from None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise TopolintError(
            "%s %r is not UTF-8 (position %d; a name decoded with "
            "os.fsdecode from bytes that are not UTF-8): the library takes "
            "UTF-8 paths; rename it, or run the `topolint` command on it"
            % (what, value, e.start), "invalid_argument") from None
    if "\0" in value:
        raise TopolintError("%s %r holds a NUL character" % (what, value),
                            "invalid_argument")
    return value


def _utf8_bytes(text: str) -> bytes:
    """`text` as bytes: UTF-8, and the bytes an `os.fsdecode` str came from
    (its surrogate escapes) given back as they were."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as e:
        raise TopolintError(
            "text holds a lone surrogate (position %d), which no encoding "
            "carries; pass bytes" % e.start, "invalid_argument") from None


def _buffer_of(data: Union[str, bytes, bytearray, memoryview]):
    """(address, size, keep-alive object) of `data`'s bytes, not copied
    where Python allows it: bytes and bytearray in place, a contiguous
    memoryview in place (read-only ones through its exporter's bytes), and
    an ASCII str through CPython's own UTF-8 form of it (the str's data).
    Anything else (a non-ASCII str, another Python) is encoded once."""
    if isinstance(data, str):
        api = getattr(ctypes, "pythonapi", None)
        if api is not None and data.isascii():
            fn = api.PyUnicode_AsUTF8AndSize
            fn.argtypes = [ctypes.py_object, ctypes.POINTER(ctypes.c_ssize_t)]
            fn.restype = ctypes.c_void_p
            size = ctypes.c_ssize_t()
            addr = fn(data, ctypes.byref(size))
            if addr:
                return addr, size.value, data
        data = _utf8_bytes(data)
    if isinstance(data, memoryview):
        if not data.contiguous:
            data = data.tobytes()
        elif isinstance(data.obj, bytes) and data.nbytes == len(data.obj):
            data = data.obj
        elif not data.readonly:
            data = data.cast("B")
            arr = (ctypes.c_char * data.nbytes).from_buffer(data)
            return ctypes.addressof(arr), data.nbytes, (data, arr)
        else:
            data = data.tobytes()
    if isinstance(data, bytearray):
        arr = (ctypes.c_char * len(data)).from_buffer(data)
        return ctypes.addressof(arr), len(data), (data, arr)
    # bytes: c_char_p hands the C function the object's own buffer.
    ptr = ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p)
    return ptr.value, len(data), data


_KINDS = {None: "auto", "auto": "auto", "hlo": "hlo", "def_json": "def_json",
          "component_config": "component_config", "neff": "neff"}


def _content_of(value: Union[str, bytes, bytearray, memoryview, Mapping]
                ) -> Dict[str, str]:
    """The request keys carrying one in-memory input: "text" for str and
    dicts, "base64" for bytes (a .neff archive, a binary HLO module, or any
    text as bytes)."""
    if isinstance(value, Mapping):  # a config dict or a def.json dict
        return {"text": json.dumps(value)}
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return {"text": value}
        except UnicodeEncodeError:  # os.fsdecode text: its bytes, as bytes
            value = _utf8_bytes(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"base64": base64.b64encode(bytes(value)).decode("ascii")}
    raise TopolintError("expected text, bytes or a dict, not %s"
                        % type(value).__name__, "invalid_argument")


def _paths(paths) -> List[str]:
    """One path or an iterable of them, each as _library_text takes it."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    try:
        return [_library_text(p, "path") for p in paths]
    except TypeError:  # not iterable
        raise TopolintError("paths: expected a path or an iterable of paths, "
                            "not %s" % type(paths).__name__,
                            "invalid_argument") from None


def _request(paths, texts, kinds, options) -> Dict[str, Any]:
    req: Dict[str, Any] = {}
    if paths:
        req["paths"] = _paths(paths)
    if texts:
        files = []
        for key, value in texts.items():
            kind = (kinds or {}).get(key)
            name = _library_text(key, "name")
            if kind not in _KINDS:
                raise TopolintError("%s: unknown kind %r" % (name, kind),
                                    "invalid_argument")
            entry = {"name": name, "kind": _KINDS[kind]}
            entry.update(_content_of(value))
            files.append(entry)
        req["files"] = files
    opts = {k: v for k, v in options.items() if v is not None}
    for key in ("baseline", "config"):
        if key in opts:
            opts[key] = _library_text(opts[key], key)
    if opts:
        req["options"] = opts
    return req


def _location(d: Mapping) -> Location:
    return Location(d.get("file", ""), d.get("line", 0), d.get("column", 0),
                    d.get("byte_offset"), d.get("logical_location"))


def _fix(d: Optional[Mapping]) -> Optional[Fix]:
    if d is None:
        return None
    return Fix(d["title"], d["applied_by"],
               [Edit(e["kind"], e["file"], e["line"], e["column"],
                     e.get("original"), e.get("replacement"),
                     e.get("offset"))
                for e in d.get("edits", [])])


def _findings(response: Any) -> List[Finding]:
    out = []
    for f in response:
        out.append(Finding(
            rule=f["rule"], severity=f["severity"], message=f["message"],
            location=_location(f),
            notes=[Note(n["message"], _location(n))
                   for n in f.get("notes", [])],
            fingerprint=f.get("fingerprint", ""),
            fix=_fix(f.get("fix"))))
    return out


def check(paths: Optional[Iterable[Union[str, bytes, os.PathLike]]] = None, *,
          texts: Optional[Mapping[str, Union[str, bytes, Mapping]]] = None,
          kinds: Optional[Mapping[str, str]] = None,
          lnc: Optional[int] = None, num_cores: Optional[int] = None,
          replica_count: Optional[int] = None,
          num_partitions: Optional[int] = None,
          rules: Optional[Union[str, List[str]]] = None,
          severity: Optional[Mapping[str, str]] = None,
          werror: Optional[bool] = None, baseline: Optional[str] = None,
          config: Optional[str] = None) -> List[Finding]:
    """Checks files, directories or in-memory inputs.

    With `paths` only: exactly as `topolint check PATH...` — directories
    are searched (compile caches, compiler work directories, NxD buckets,
    XLA dumps), files are grouped into units, each unit is checked with the
    nearest .topolint.json (or `config`) and its "include" / "exclude".

    With `texts`: ONE unit, the in-memory `texts` (display name -> HLO
    text, def.json / config text or dict, or bytes: a whole .neff archive,
    a binary HLO module such as an HloModuleProto, plain or gzip) plus the
    files at `paths`, all compared with each other. `kinds` may force an
    input's kind ("hlo", "def_json", "component_config", "neff"); without
    one the name decides (*.neff, *.hlo.pb, *.json, ...).

    Paths and names are str, bytes or os.PathLike. The library takes UTF-8
    names: bytes are decoded as UTF-8, and a name that is not UTF-8 (such
    as an `os.fsdecode` str of other bytes) or holds a NUL is refused with
    TopolintError "invalid_argument" (the `topolint` command takes any
    path).

    The settings are the CLI flags of the same names; `severity` maps rule
    ids to "error"/"warning"/"note"/"off". Returns the findings, sorted as
    the CLI prints them."""
    options = dict(
        lnc=lnc, num_cores=num_cores, replica_count=replica_count,
        num_partitions=num_partitions, rules=rules,
        severity=dict(severity) if severity else None, werror=werror,
        baseline=baseline, config=config)
    if texts:
        req = _request(paths, texts, kinds, options)
    else:
        search = _paths(paths) if paths else []
        if not search:
            raise TopolintError("nothing to check: give paths or texts",
                                "invalid_request")
        req = _request(None, None, None, options)
        req["search"] = search
    return _findings(_call("topolint_check_json", req))


def check_module(data: Union[bytes, bytearray, memoryview, str], *,
                 name: str = "module.hlo_module.pb",
                 neff: Optional[Union[bytes, bytearray, memoryview]] = None,
                 neff_name: Optional[str] = None,
                 neuron_config: Optional[Union[str, Mapping]] = None,
                 **settings: Any) -> List[Finding]:
    """Checks a module a driver holds in memory, before it is written: a
    serialized `HloModuleProto` (or HloProto / HloSnapshot, plain or gzip;
    `module.SerializeToString()`), or HLO text. `name` is the display name
    in findings. With `neff` (the bytes of a .neff archive) the module is
    compared with it (the cross-file rules); `neuron_config` (a dict or
    JSON text) adds the deployment config. `settings` are check()'s
    (lnc=2, rules=..., ...)."""
    name = _library_text(name, "name")
    texts: Dict[str, Any] = {}
    kinds: Dict[str, str] = {}
    if neff is not None:
        nname = (_library_text(neff_name, "neff_name") if neff_name
                 else name.rsplit(".", 2)[0] + ".neff")
        texts[nname] = neff
        kinds[nname] = "neff"
    if neuron_config is not None:
        texts["neuron_config.json"] = neuron_config
        kinds["neuron_config.json"] = "component_config"
    if hasattr(_load(), "topolint_check_text"):
        # The module is handed over in place, not copied (check_text).
        return check_text(data, name=name, kind="hlo", texts=texts or None,
                          kinds=kinds or None, **settings)
    texts[name] = data
    kinds[name] = "hlo"
    return check(texts=texts, kinds=kinds, **settings)


def check_text(data: Union[str, bytes, bytearray, memoryview], *,
               name: str = "module.hlo", kind: Optional[str] = None,
               paths: Optional[Iterable[Union[str, bytes, os.PathLike]]] = None,
               texts: Optional[Mapping[str, Union[str, bytes, Mapping]]] = None,
               kinds: Optional[Mapping[str, str]] = None,
               **settings: Any) -> List[Finding]:
    """Checks one large in-memory input without copying it: HLO text (or
    a binary module, a def.json, a .neff: `kind` as in check()) handed to
    the library in place (topolint_check_text), so a 500 MB module costs
    its own size plus bounded working memory. bytes, bytearray, contiguous
    memoryviews and ASCII str are not copied; a non-ASCII str is encoded
    once. `name` is the display name in findings; `paths` and `texts` add
    the other inputs of the unit (as in check(), compared with this one);
    `settings` are check()'s (lnc=2, rules=..., ...)."""
    name = _library_text(name, "name")
    if kind not in _KINDS:
        raise TopolintError("%s: unknown kind %r" % (name, kind),
                            "invalid_argument")
    lib = _load()
    if not hasattr(lib, "topolint_check_text"):
        raise TopolintError("the loaded libtopolint_c (%s) has no "
                            "topolint_check_text; install a newer topolint"
                            % _lib_path, "not_found")
    options = {k: v for k, v in settings.items()}
    for key in options:
        if key not in ("lnc", "num_cores", "replica_count", "num_partitions",
                       "rules", "severity", "werror", "baseline", "config"):
            raise TypeError("check_text() got an unexpected keyword "
                            "argument %r" % key)
    if options.get("severity"):
        options["severity"] = dict(options["severity"])
    req = _request(paths, texts, kinds, options)
    addr, size, keep = _buffer_of(data)
    ptr = lib.topolint_check_text(json.dumps(req).encode(), name.encode(),
                                  _KINDS[kind].encode(), addr, size)
    del keep  # the library has returned: the buffer may go
    return _findings(_response(lib, "topolint_check_text", ptr))


def explain(paths: Optional[Iterable[Union[str, bytes, os.PathLike]]] = None, *,
            texts: Optional[Mapping[str, Union[str, bytes, Mapping]]] = None,
            kinds: Optional[Mapping[str, str]] = None,
            lnc: Optional[int] = None, num_cores: Optional[int] = None,
            replica_count: Optional[int] = None,
            num_partitions: Optional[int] = None,
            config: Optional[str] = None) -> List[Dict[str, Any]]:
    """`topolint explain --format json` for one unit, as Python data: the
    list of its "units" (one here), each a dict of its HLO modules (with
    their collectives, expanded groups and device grids), def.json
    topologies and their comparison, configs and, with `lnc`/`num_cores`,
    the rank map."""
    req = _request(paths, texts, kinds, dict(
        lnc=lnc, num_cores=num_cores, replica_count=replica_count,
        num_partitions=num_partitions, config=config))
    return _call("topolint_explain_json", req)["units"]
