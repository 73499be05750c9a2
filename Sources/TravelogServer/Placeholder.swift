public enum TravelogServerPlaceholder {}
