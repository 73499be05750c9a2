import CoreMetrics

/// The MQTT subscriber's series: whether it is connected, how often it lost the broker, and what
/// became of each message.
extension ServerMetrics {
    /// `travelog_mqtt_connected`: 1 while subscribed to the broker, 0 otherwise.
    func recordMQTTConnected(_ connected: Bool) {
        Meter(label: "travelog_mqtt_connected", factory: factory).set(connected ? 1 : 0)
    }

    /// `travelog_mqtt_disconnects_total`: connections lost or refused (each followed by a reconnect).
    func recordMQTTDisconnect() {
        CoreMetrics.Counter(label: "travelog_mqtt_disconnects_total", factory: factory).increment()
    }

    /// `travelog_mqtt_messages_total{outcome}`: stored, set_aside, unknown_user, ignored, store_failed.
    func recordMQTTMessage(_ outcome: String) {
        CoreMetrics.Counter(label: "travelog_mqtt_messages_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }
}
