#ifndef RELAY_CLIBXML2_SHIM_H
#define RELAY_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian builds libxml2 with ICU, so its encoding.h includes the system's ICU headers, which clash
   with the ICU that Foundation bundles. Relay never uses the ICU-dependent parts (the encoding
   handler struct), so the include is turned off; the library itself is unchanged. */
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

/* libxml2's xmlFree is a global function pointer, which Swift 6 cannot call safely; this wraps it. */
static inline void relay_xml_free(void *pointer) { xmlFree(pointer); }
#endif
