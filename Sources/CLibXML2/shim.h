// The libxml2 headers the property-list reader uses: the SAX2 push parser and its context.
#include <libxml/xmlversion.h>
// libxml2's encoding.h includes the system ICU headers when libxml2 was built with ICU; they
// clash with the ICU module Foundation carries ('UErrorCode' defined twice) in any target that
// imports both. We never touch the ICU-dependent fields, so hide them.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
