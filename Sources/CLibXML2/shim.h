#include <libxml/xmlwriter.h>
#include <libxml/xmlschemas.h>
#include <libxml/parser.h>
#include <libxml/xmlIO.h>
