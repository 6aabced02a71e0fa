/* libxml2 through a system-library target.
 * Debian builds libxml2 with ICU, so encoding.h includes <unicode/ucnv.h>, whose enums clash
 * with the ICU copy inside Foundation. Accord never touches the ICU members of
 * xmlCharEncodingHandler, so hide them: include xmlversion.h (guarded) and drop the flag
 * before any other libxml2 header sees it. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlwriter.h>
#include <libxml/xmlschemas.h>
#include <libxml/parser.h>
#include <libxml/xmlIO.h>
