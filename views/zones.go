package views

// Zones are the time zones Settings suggests (any IANA name is taken):
// one or two a region, by UTC offset within it.
var Zones = []string{
	"Pacific/Honolulu", "America/Anchorage", "America/Los_Angeles", "America/Vancouver", "America/Denver",
	"America/Phoenix", "America/Chicago", "America/Mexico_City", "America/New_York", "America/Toronto",
	"America/Bogota", "America/Lima", "America/Halifax", "America/Santiago", "America/Sao_Paulo",
	"America/Argentina/Buenos_Aires", "Atlantic/Azores", "Atlantic/Reykjavik", "Europe/Lisbon", "Europe/London",
	"Europe/Dublin", "Africa/Lagos", "Europe/Paris", "Europe/Berlin", "Europe/Madrid", "Europe/Rome",
	"Europe/Amsterdam", "Europe/Stockholm", "Europe/Warsaw", "Africa/Cairo", "Africa/Johannesburg",
	"Europe/Athens", "Europe/Helsinki", "Europe/Kyiv", "Asia/Jerusalem", "Europe/Istanbul", "Europe/Moscow",
	"Asia/Riyadh", "Africa/Nairobi", "Asia/Tehran", "Asia/Dubai", "Asia/Kabul", "Asia/Karachi",
	"Asia/Tashkent", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Dhaka", "Asia/Yangon", "Asia/Bangkok",
	"Asia/Jakarta", "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Taipei", "Asia/Singapore", "Australia/Perth",
	"Asia/Seoul", "Asia/Tokyo", "Australia/Adelaide", "Australia/Brisbane", "Australia/Sydney",
	"Pacific/Noumea", "Pacific/Auckland", "UTC",
}
