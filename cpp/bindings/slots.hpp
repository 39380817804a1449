// Fields of the engine's HandData (python/xueliu/game/data.py) by __slots__ offset, for the
// bindings that read or write a hand in progress (bind_engine.cpp, bind_encode.cpp).
//
// The engine declares its fields in __slots__, so each is a member descriptor at a fixed offset
// in the instance: resolve() looks the offsets up once for the HandData class and get()/set() use
// them, as the descriptor itself does (PyObject_GetAttr would look the name up again on every
// access, which costs as much as the Python it replaces). A name that is not such a slot (offset
// -1) goes through PyObject_GetAttr / PyObject_SetAttr.
#pragma once

#include <pybind11/pybind11.h>
#include <structmember.h>  // T_OBJECT_EX, READONLY: the engine's __slots__ are such members

#include <initializer_list>

namespace xueliu::bindings {

struct Slot {
  const char* text;
  Py_ssize_t offset = -1;
  PyObject* name = nullptr;
  PyObject* interned() {
    if (!name) name = PyUnicode_InternFromString(text);
    return name;
  }
};

// The offset of each slot in instances of `type` (and of its subclasses).
inline void resolve(PyTypeObject* type, std::initializer_list<Slot*> slots) {
  for (Slot* s : slots) {
    s->offset = -1;
    PyObject* d = PyObject_GetAttr(reinterpret_cast<PyObject*>(type), s->interned());
    if (!d) {
      PyErr_Clear();
      continue;
    }
    if (PyObject_TypeCheck(d, &PyMemberDescr_Type)) {
      const PyMemberDef* m = reinterpret_cast<PyMemberDescrObject*>(d)->d_member;
      if (m->type == T_OBJECT_EX && !(m->flags & READONLY)) s->offset = m->offset;
    }
    Py_DECREF(d);
  }
}

// The field (a new reference), AttributeError when unset.
inline pybind11::object get(PyObject* g, Slot& s) {
  if (s.offset >= 0) {
    PyObject* v = *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(g) + s.offset);
    if (!v) {
      PyErr_SetString(PyExc_AttributeError, s.text);
      throw pybind11::error_already_set();
    }
    return pybind11::reinterpret_borrow<pybind11::object>(v);
  }
  PyObject* v = PyObject_GetAttr(g, s.interned());
  if (!v) throw pybind11::error_already_set();
  return pybind11::reinterpret_steal<pybind11::object>(v);
}

inline void set(PyObject* g, Slot& s, PyObject* value) {
  if (s.offset >= 0) {
    PyObject** field = reinterpret_cast<PyObject**>(reinterpret_cast<char*>(g) + s.offset);
    PyObject* old = *field;
    Py_INCREF(value);
    *field = value;
    Py_XDECREF(old);  // last: a destructor it runs sees the new value in place
    return;
  }
  if (PyObject_SetAttr(g, s.interned(), value) != 0) throw pybind11::error_already_set();
}

}  // namespace xueliu::bindings
