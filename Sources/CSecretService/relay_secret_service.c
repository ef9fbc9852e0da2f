#include "relay_secret_service.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The few libsecret and GLib declarations used, written out so that no header is needed to build. */
typedef struct {
    const char *name;
    int type; /* SECRET_SCHEMA_ATTRIBUTE_STRING = 0 */
} SchemaAttribute;

typedef struct {
    const char *name;
    int flags; /* SECRET_SCHEMA_NONE = 0 */
    SchemaAttribute attributes[32];
    int reserved;
    void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} Schema;

typedef struct {
    unsigned int domain;
    int code;
    char *message;
} GErrorShape;

typedef struct GListShape {
    void *data;
    struct GListShape *next, *prev;
} GListShape;

static const Schema schema = {"org.relay.Secret", 0, {{"name", 0}, {"application", 0}, {NULL, 0}}, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

static struct {
    void *(*hash_new)(unsigned int (*)(const void *), int (*)(const void *, const void *));
    int (*hash_insert)(void *, void *, void *);
    void *(*hash_lookup)(void *, const void *);
    void (*hash_unref)(void *);
    unsigned int (*str_hash)(const void *);
    int (*str_equal)(const void *, const void *);
    void (*error_free)(void *);
    void (*list_free_full)(void *, void (*)(void *));
    void (*object_unref)(void *);
    char *(*lookup)(const Schema *, void *, void *, GErrorShape **);
    int (*store)(const Schema *, void *, const char *, const char *, const char *, void *, GErrorShape **);
    int (*clear)(const Schema *, void *, void *, GErrorShape **);
    void *(*search)(const Schema *, void *, int, void *, GErrorShape **);
    void *(*attributes_of)(void *);
    void (*password_free)(char *);
} api;

static int loaded = -1;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libsecret-1.0.dylib", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        loaded = 0;
        return;
    }
#define FIND(field, symbol) *(void **)(&api.field) = dlsym(library, symbol)
    FIND(hash_new, "g_hash_table_new");
    FIND(hash_insert, "g_hash_table_insert");
    FIND(hash_lookup, "g_hash_table_lookup");
    FIND(hash_unref, "g_hash_table_unref");
    FIND(str_hash, "g_str_hash");
    FIND(str_equal, "g_str_equal");
    FIND(error_free, "g_error_free");
    FIND(list_free_full, "g_list_free_full");
    FIND(object_unref, "g_object_unref");
    FIND(lookup, "secret_password_lookupv_sync");
    FIND(store, "secret_password_storev_sync");
    FIND(clear, "secret_password_clearv_sync");
    FIND(search, "secret_password_searchv_sync");
    FIND(attributes_of, "secret_retrievable_get_attributes");
    FIND(password_free, "secret_password_free");
#undef FIND
    loaded = api.hash_new && api.hash_insert && api.hash_lookup && api.hash_unref && api.str_hash && api.str_equal
        && api.error_free && api.list_free_full && api.object_unref && api.lookup && api.store && api.clear && api.search
        && api.attributes_of && api.password_free;
}

int relay_secret_service_load(void) {
    pthread_once(&once, load);
    return loaded == 1;
}

static void *attributes(const char *name) {
    void *table = api.hash_new(api.str_hash, api.str_equal);
    if (name) api.hash_insert(table, (void *)"name", (void *)name);
    api.hash_insert(table, (void *)"application", (void *)"relay");
    return table;
}

static void take_error(GErrorShape *error, char **out) {
    if (!error) return;
    if (out) *out = strdup(error->message ? error->message : "the Secret Service failed");
    api.error_free(error);
}

char *relay_secret_service_lookup(const char *name, char **error) {
    if (!relay_secret_service_load()) return NULL;
    GErrorShape *problem = NULL;
    void *table = attributes(name);
    char *found = api.lookup(&schema, table, NULL, &problem);
    api.hash_unref(table);
    take_error(problem, error);
    if (!found) return NULL;
    char *copy = strdup(found);
    api.password_free(found);
    return copy;
}

int relay_secret_service_store(const char *name, const char *value, char **error) {
    if (!relay_secret_service_load()) return 0;
    GErrorShape *problem = NULL;
    void *table = attributes(name);
    char label[300];
    strcpy(label, "Relay secret ");
    strncat(label, name, sizeof label - strlen(label) - 1);
    int stored = api.store(&schema, table, "default", label, value, NULL, &problem);
    api.hash_unref(table);
    take_error(problem, error);
    return stored && !problem;
}

int relay_secret_service_clear(const char *name, char **error) {
    if (!relay_secret_service_load()) return 0;
    GErrorShape *problem = NULL;
    void *table = attributes(name);
    int removed = api.clear(&schema, table, NULL, &problem);
    api.hash_unref(table);
    if (problem) {
        take_error(problem, error);
        return -1;
    }
    return removed ? 1 : 0;
}

char *relay_secret_service_names(char **error) {
    if (!relay_secret_service_load()) return NULL;
    GErrorShape *problem = NULL;
    void *table = attributes(NULL);
    GListShape *items = api.search(&schema, table, 1 << 1 /* SECRET_SEARCH_ALL */, NULL, &problem);
    api.hash_unref(table);
    if (problem) {
        take_error(problem, error);
        return NULL;
    }
    size_t length = 0;
    for (GListShape *item = items; item; item = item->next) {
        void *found = api.attributes_of(item->data);
        const char *name = found ? api.hash_lookup(found, "name") : NULL;
        if (name) length += strlen(name) + 1;
        if (found) api.hash_unref(found);
    }
    char *names = calloc(length + 1, 1);
    if (!names) {
        if (items) api.list_free_full(items, api.object_unref);
        return NULL;
    }
    for (GListShape *item = items; item; item = item->next) {
        void *found = api.attributes_of(item->data);
        const char *name = found ? api.hash_lookup(found, "name") : NULL;
        if (name) {
            strcat(names, name);
            strcat(names, "\n");
        }
        if (found) api.hash_unref(found);
    }
    if (items) api.list_free_full(items, api.object_unref);
    return names;
}

void relay_secret_service_free(char *text) { free(text); }
