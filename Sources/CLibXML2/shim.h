#ifndef RELAY_CLIBXML2_SHIM_H
#define RELAY_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian builds libxml2 with ICU, so its encoding.h includes the system's ICU headers, which clash
   with the ICU that Foundation bundles. Relay never uses the ICU-dependent parts (the encoding
   handler struct), so the include is turned off. Only the types and constants come from here:
   the functions are looked up when first needed (RelayActions' SharedObject). */
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#endif
