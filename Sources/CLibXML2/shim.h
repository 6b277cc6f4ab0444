// The libxml2 headers the property-list reader uses: the SAX2 push parser and its context.
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
