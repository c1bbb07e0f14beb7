# The abi3 build's calls with arguments (included by _core.pyx; issue 27).
#
# Under the 3.11 Limited API, Cython gives a method (with arguments or
# without) the METH_VARARGS convention (it ties METH_FASTCALL to the vectorcall API, in
# the Limited API only from 3.12): each call packs its arguments into a new
# tuple that the method then unpacks, about 150-200 instructions more than
# the version-specific build pays. METH_FASTCALL itself is in the stable ABI
# since 3.10, so here the methods that step loops call (with exactly their
# positional arguments) get a second entry point with it: a method
# descriptor (PyDescr_NewMethod) that runs the method's work directly when
# called with exactly its positional arguments and hands every other call
# (keywords, a wrong count) to Cython's own method, so that behaviour,
# messages, signature and docstring stay those of the original. The
# version-specific build keeps Cython's methods (already METH_FASTCALL; its
# types are static and cannot be changed anyway).
from cpython.object cimport PyObject

cdef extern from *:
    """
    #if CYTHON_COMPILING_IN_LIMITED_API
    #define TAB_FASTCALL_SHIMS 1
    #else
    #define TAB_FASTCALL_SHIMS 0
    #endif
    typedef PyObject *(*tab_fast_impl)(PyObject *self, PyObject *const *args);
    typedef struct { PyMethodDef def; PyObject *orig; tab_fast_impl impl; Py_ssize_t nargs; } tab_fast_slot;
    #define TAB_FAST_MAX 12
    static tab_fast_slot tab_fast[TAB_FAST_MAX];

    /* any call but exactly nargs positional arguments: the original method, self first */
    static PyObject *tab_fast_slow(tab_fast_slot *s, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames) {
        Py_ssize_t nk = kwnames ? PyTuple_Size(kwnames) : 0, i;
        PyObject *t = PyTuple_New(nargs + 1), *kw = NULL, *r = NULL;
        if (t == NULL) return NULL;
        Py_INCREF(self);
        if (PyTuple_SetItem(t, 0, self) < 0) goto done;
        for (i = 0; i < nargs; i++) {
            Py_INCREF(args[i]);
            if (PyTuple_SetItem(t, i + 1, args[i]) < 0) goto done;
        }
        if (nk > 0) {
            if ((kw = PyDict_New()) == NULL) goto done;
            for (i = 0; i < nk; i++)
                if (PyDict_SetItem(kw, PyTuple_GetItem(kwnames, i), args[nargs + i]) < 0) goto done;
        }
        r = PyObject_Call(s->orig, t, kw);
    done:
        Py_DECREF(t);
        Py_XDECREF(kw);
        return r;
    }

    #define TAB_FAST_SHIM(i) \
    static PyObject *tab_fast_shim##i(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) { \
        if (nargs == tab_fast[i].nargs && kwnames == NULL) return tab_fast[i].impl(self, args); \
        return tab_fast_slow(&tab_fast[i], self, args, nargs, kwnames); \
    }
    TAB_FAST_SHIM(0) TAB_FAST_SHIM(1) TAB_FAST_SHIM(2) TAB_FAST_SHIM(3)
    TAB_FAST_SHIM(4) TAB_FAST_SHIM(5) TAB_FAST_SHIM(6) TAB_FAST_SHIM(7)
    TAB_FAST_SHIM(8) TAB_FAST_SHIM(9) TAB_FAST_SHIM(10) TAB_FAST_SHIM(11)
    static void *tab_fast_shims[TAB_FAST_MAX] = {
        (void *) tab_fast_shim0, (void *) tab_fast_shim1, (void *) tab_fast_shim2, (void *) tab_fast_shim3,
        (void *) tab_fast_shim4, (void *) tab_fast_shim5, (void *) tab_fast_shim6, (void *) tab_fast_shim7,
        (void *) tab_fast_shim8, (void *) tab_fast_shim9, (void *) tab_fast_shim10, (void *) tab_fast_shim11};

    /* A METH_FASTCALL method descriptor of type for slot i: impl(self, args)
       when called with exactly nargs positional arguments, else orig. name
       and doc must stay alive as long as the type. */
    static PyObject *tab_fast_method(int i, PyObject *type, PyObject *orig, const char *name, const char *doc,
                                     void *impl, Py_ssize_t nargs) {
        tab_fast_slot *s;
        if (i < 0 || i >= TAB_FAST_MAX) {
            PyErr_SetString(PyExc_RuntimeError, "tab_fast_method: no free slot");
            return NULL;
        }
        s = &tab_fast[i];
        s->def.ml_name = name;
        s->def.ml_meth = (PyCFunction)(void (*)(void)) tab_fast_shims[i];
        s->def.ml_flags = METH_FASTCALL | METH_KEYWORDS;
        s->def.ml_doc = doc;
        Py_INCREF(orig);
        s->orig = orig;
        s->impl = (tab_fast_impl) impl;
        s->nargs = nargs;
        return PyDescr_NewMethod((PyTypeObject *) type, &s->def);
    }
    """
    bint TAB_FASTCALL_SHIMS
    object tab_fast_method(int i, object type, object orig, const char *name, const char *doc, void *impl,
                           Py_ssize_t nargs)


cdef list _fast_kept = []     # the names and docstrings the descriptors point into (alive as long as the module)


cdef int _install_fast(type cls, str name, void *impl, Py_ssize_t nargs) except -1:
    """cls.name := a METH_FASTCALL descriptor running impl on exactly nargs positional arguments."""
    orig = cls.__dict__[name]
    sig = getattr(orig, "__text_signature__", None)
    cdef bytes doc = ((f"{name}{sig}\n--\n\n" if sig else "") + (orig.__doc__ or "")).encode("utf-8")
    cdef bytes raw = name.encode("utf-8")
    _fast_kept.append((raw, doc))
    setattr(cls, name, tab_fast_method(len(_fast_kept) - 1, cls, orig, raw, doc, impl, nargs))
    return 0


# the methods' work on exactly their positional arguments (args[0], ...),
# converted as the methods' own wrappers convert them (seeds: _seed_arg)
cdef object _fast_apply_action(object self, PyObject **args):
    cdef int action = <object> args[0]
    return (<CoreState> self)._apply_c(action)


cdef object _fast_try_push(object self, PyObject **args):
    return (<CoreState> self)._try_push(<object> args[0])


cdef object _fast_determinize(object self, PyObject **args):
    return (<CoreState> self)._determinize_c(<object> args[0], <object> args[1])


cdef object _fast_greedy(object self, PyObject **args):
    return (<CoreState> self)._greedy_c(_seed_arg(<object> args[0]))


cdef object _fast_observe_into(object self, PyObject **args):
    return _observe_all(<CoreState> self, <object> args[0], <object> args[1], <object> args[2])


# methods without arguments: Cython gives them the same METH_VARARGS
# convention under the 3.11 Limited API (a call went through tp_call with an
# empty tuple: _PyObject_MakeTpCall, cfunction_call and the result check,
# about 150 instructions of a ~2,200-instruction clone)
cdef object _fast_clone(object self, PyObject **args):
    return (<CoreState> self)._clone_c()


cdef object _fast_legal_actions(object self, PyObject **args):
    return (<CoreState> self)._legal_actions_c()


cdef object _fast_returns(object self, PyObject **args):
    return (<CoreState> self)._returns_c()


cdef object _fast_pop(object self, PyObject **args):
    return (<CoreState> self)._pop_c()


cdef object _fast_infostate_key(object self, PyObject **args):
    return (<CoreState> self)._infostate_key(<object> args[0])


if TAB_FASTCALL_SHIMS:
    _install_fast(CoreState, "_apply_action", <void *> _fast_apply_action, 1)
    _install_fast(CoreState, "try_push", <void *> _fast_try_push, 1)
    _install_fast(CoreState, "determinize", <void *> _fast_determinize, 2)
    _install_fast(CoreState, "_determinize", <void *> _fast_determinize, 2)
    _install_fast(CoreState, "_greedy", <void *> _fast_greedy, 1)
    _install_fast(CoreState, "observe_into", <void *> _fast_observe_into, 3)
    _install_fast(CoreState, "infostate_key", <void *> _fast_infostate_key, 1)
    _install_fast(CoreState, "clone", <void *> _fast_clone, 0)
    _install_fast(CoreState, "legal_actions", <void *> _fast_legal_actions, 0)
    _install_fast(CoreState, "returns", <void *> _fast_returns, 0)
    _install_fast(CoreState, "_pop", <void *> _fast_pop, 0)
