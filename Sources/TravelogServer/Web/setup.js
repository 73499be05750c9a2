// The first run: on a server without any account, the one-time link the server printed opens
// /setup?token=… and this form creates the first account (the administrator).
