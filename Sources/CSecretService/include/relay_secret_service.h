#ifndef RELAY_SECRET_SERVICE_H
#define RELAY_SECRET_SERVICE_H

/// The system keyring through the Secret Service (libsecret), opened when first used: Relay
/// neither links libsecret nor needs it installed (Docs/Runs.md, "Secrets"). Each secret is kept
/// under the schema "org.relay.Secret" with one attribute, its name.

/// 1 when libsecret could be opened, else 0.
int relay_secret_service_load(void);

/// The value kept for `name`, to be freed with relay_secret_service_free; NULL when there is none
/// or on an error (then *error is set, to be freed with relay_secret_service_free).
char *relay_secret_service_lookup(const char *name, char **error);

/// Keeps `value` for `name` in the default collection; 1 on success, else 0 and *error.
int relay_secret_service_store(const char *name, const char *value, char **error);

/// Forgets `name`; 1 when something was removed, 0 when nothing was, -1 on an error (*error).
int relay_secret_service_clear(const char *name, char **error);

/// The names kept, separated by newlines (to free), or NULL on an error (*error).
char *relay_secret_service_names(char **error);

void relay_secret_service_free(char *text);

#endif
