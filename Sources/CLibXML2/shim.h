#ifndef RELAY_CLIBXML2_SHIM_H
#define RELAY_CLIBXML2_SHIM_H
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

/// libxml2's xmlFree is a global function pointer, which Swift 6 cannot call safely; this wraps it.
static inline void relay_xml_free(void *pointer) { xmlFree(pointer); }
#endif
