# cython: language_level=3
"""`dumps(obj)`: the text of `json.dumps(obj, separators=(",", ":"))`, written straight into a
C buffer for the shapes results are made of (dict with str keys, list, tuple, int, str, bool,
None). Anything else (floats, non-ASCII or escaped strings, subclasses, huge ints) is handed to
the json module for that value, so the text is always identical to json.dumps'. The batch
evaluate path spends less time here than in json's encoder, which builds an encoder object and
many small strings per call."""
import json

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy

from .jsonscan cimport int_digits

cdef extern from "Python.h":
    ctypedef struct PyObject
    bint PyUnicode_CheckExact(object o)
    bint PyLong_CheckExact(object o)
    bint PyDict_CheckExact(object o)
    bint PyList_CheckExact(object o)
    bint PyTuple_CheckExact(object o)
    const char* PyUnicode_AsUTF8AndSize(object o, Py_ssize_t* size) except NULL
    bint PyUnicode_IS_ASCII(object o)
    long long PyLong_AsLongLongAndOverflow(object o, int* overflow) except? -1
    object PyUnicode_DecodeASCII(const char* s, Py_ssize_t size, const char* errors)

_fallback = json.JSONEncoder(separators=(",", ":")).encode


class _Fallback(Exception):
    """A value only the json module may render."""


cdef struct Buf:
    char* data
    Py_ssize_t n, cap


cdef int grow(Buf* b, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap = b.cap
    cdef char* p
    if b.n + extra <= cap:
        return 0
    while cap < b.n + extra:
        cap *= 2
    p = <char*>realloc(b.data, cap)
    if p == NULL:
        raise MemoryError()
    b.data = p
    b.cap = cap
    return 0


cdef inline int put(Buf* b, const char* s, Py_ssize_t n) except -1:
    if b.n + n > b.cap:
        grow(b, n)
    memcpy(b.data + b.n, s, n)
    b.n += n
    return 0


cdef inline bint plain_ascii(const char* s, Py_ssize_t n) noexcept:
    """No character json would escape."""
    cdef Py_ssize_t i
    cdef unsigned char c
    for i in range(n):
        c = <unsigned char>s[i]
        if c < 0x20 or c == 34 or c == 92 or c >= 0x7f:
            return False
    return True


cdef int put_int(Buf* b, long long v) except -1:
    cdef char num[24]
    cdef int k = int_digits(v, num)
    return put(b, num + k, 24 - k)


cdef int put_str(Buf* b, object s) except -1:
    cdef Py_ssize_t n
    cdef const char* p
    if PyUnicode_IS_ASCII(s):
        p = PyUnicode_AsUTF8AndSize(s, &n)
        if plain_ascii(p, n):
            put(b, "\"", 1)
            put(b, p, n)
            put(b, "\"", 1)
            return 0
    text = _fallback(s)
    p = PyUnicode_AsUTF8AndSize(text, &n)
    return put(b, p, n)


cdef int write(Buf* b, object obj) except -1:
    cdef int overflow = 0
    cdef long long v
    cdef bint first
    cdef Py_ssize_t n
    cdef const char* p
    if obj is None:
        return put(b, "null", 4)
    if obj is True:
        return put(b, "true", 4)
    if obj is False:
        return put(b, "false", 5)
    if PyLong_CheckExact(obj):
        v = PyLong_AsLongLongAndOverflow(obj, &overflow)
        if not overflow:
            return put_int(b, v)
    elif PyUnicode_CheckExact(obj):
        return put_str(b, obj)
    elif PyDict_CheckExact(obj):
        put(b, "{", 1)
        first = True
        for key, value in (<dict>obj).items():
            if not PyUnicode_CheckExact(key):
                raise _Fallback()       # json converts such keys (or raises): let it
            if not first:
                put(b, ",", 1)
            first = False
            put_str(b, key)
            put(b, ":", 1)
            write(b, value)
        return put(b, "}", 1)
    elif PyList_CheckExact(obj) or PyTuple_CheckExact(obj):
        put(b, "[", 1)
        first = True
        for value in obj:
            if not first:
                put(b, ",", 1)
            first = False
            write(b, value)
        return put(b, "]", 1)
    text = _fallback(obj)
    p = PyUnicode_AsUTF8AndSize(text, &n)
    return put(b, p, n)


def dumps(obj):
    """json.dumps(obj, separators=(",", ":")), faster for plain results."""
    cdef Buf b
    b.cap = 4096
    b.n = 0
    b.data = <char*>malloc(b.cap)
    if b.data == NULL:
        raise MemoryError()
    try:
        write(&b, obj)
        return PyUnicode_DecodeASCII(b.data, b.n, NULL)
    except _Fallback:
        return _fallback(obj)
    finally:
        free(b.data)
