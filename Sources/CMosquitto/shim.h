// libmosquitto (https://mosquitto.org), the Eclipse Mosquitto client library, from Debian's
// libmosquitto-dev: `travelog serve --mqtt`'s subscriber (MQTTSubscriber). docs/ARCHITECTURE.md
// says why its threaded loop is used and when a message is acknowledged.
#include <mosquitto.h>
// MQTT 5's property identifiers (the session expiry interval).
#include <mqtt_protocol.h>
